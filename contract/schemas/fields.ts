// Every shape of the fields API (see ./funnels.ts for how these are used). The SPA imports the
// types only, through contract/fields.ts.
import { Type, type Static } from 'typebox';
import { FIELD_KEY_PATTERN, FIELD_KINDS, FIELD_OPTION_MAX, FIELD_OPTIONS_MAX, FIELD_TITLE_MAX, FIELD_VALUE_MAX, REASK_TEXT_MAX } from '../fields';
import { Id, Nullable, PatternText, StringEnum, Text } from './common';

export const FunnelFieldSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  /** Its placeholder in messages: `{key}`. */
  key: Text(),
  title: Text(),
  kind: StringEnum(FIELD_KINDS),
  /** A choice's options, in order (empty for other kinds). */
  options: Type.Array(Text()),
  /** People who have a value. */
  people_count: Type.Integer(),
  /** Stages that ask for it (deleting the field breaks their ask). */
  asked_by: Type.Array(Type.Object({ id: Type.Integer(), title: Text() })),
  created_at: Text(),
});
export type FunnelField = Static<typeof FunnelFieldSchema>;

const FieldKey = () => PatternText(FIELD_KEY_PATTERN, 'Use small Latin letters, digits and _, starting with a letter.');

export const FieldBodySchema = Type.Object({
  title: Text(FIELD_TITLE_MAX, 1),
  key: Type.Optional(FieldKey()),
  kind: StringEnum(FIELD_KINDS),
  options: Type.Optional(Type.Array(Text(FIELD_OPTION_MAX), { maxItems: FIELD_OPTIONS_MAX })),
});
export type FieldBody = Static<typeof FieldBodySchema>;

/** Rename, change the key or a choice's options (the kind stays: values kept under it would not fit another). */
export const FieldPatchSchema = Type.Object({
  title: Type.Optional(Text(FIELD_TITLE_MAX, 1)),
  key: Type.Optional(FieldKey()),
  options: Type.Optional(Type.Array(Text(FIELD_OPTION_MAX), { maxItems: FIELD_OPTIONS_MAX })),
});
export type FieldPatch = Static<typeof FieldPatchSchema>;

/** A stage's question: its next message from the person is the answer. field_id null: the field was deleted (the ask is broken). */
export const StageAskSchema = Type.Object({
  field_id: Nullable(Id()),
  reask_text: Text(REASK_TEXT_MAX),
});
export type StageAsk = Static<typeof StageAskSchema>;

/** A person's value of a field, as the owner sets it (an empty value clears it). */
export const PersonFieldBodySchema = Type.Object({ value: Text(FIELD_VALUE_MAX) });
export type PersonFieldBody = Static<typeof PersonFieldBodySchema>;

/** One field of the person's funnel, with their value (null: none). */
export const PersonFieldValueSchema = Type.Object({
  field_id: Type.Integer(),
  key: Text(),
  title: Text(),
  kind: StringEnum(FIELD_KINDS),
  options: Type.Array(Text()),
  value: Nullable(Text()),
  updated_at: Nullable(Text()),
});
export type PersonFieldValue = Static<typeof PersonFieldValueSchema>;
