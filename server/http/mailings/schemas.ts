// The mailings API's routes as Fastify sees them: which contract schema checks each body and
// query, and which serializes each answer. No shape is written here.
import { Type } from 'typebox';
import {
  AudienceCountSchema,
  AudienceSchema,
  MailingBodySchema,
  MailingCheckSchema,
  MailingListSchema,
  MailingPatchSchema,
  MailingSchema,
  RecipientsPageSchema,
  RecipientsQuerySchema,
  SendMailingBodySchema,
} from '../../../contract/schemas/mailings';

const params = Type.Object({ id: Type.String() });

export const listSchema = { params, response: { 200: MailingListSchema } };
export const createSchema = { params, body: MailingBodySchema, response: { 201: MailingSchema } };
export const audienceSchema = { params, body: AudienceSchema, response: { 200: AudienceCountSchema } };
export const mailingSchema = { params, response: { 200: MailingSchema } };
export const updateSchema = { params, body: MailingPatchSchema, response: { 200: MailingSchema } };
export const checkSchema = { params, response: { 200: MailingCheckSchema } };
export const sendSchema = { params, body: Type.Optional(SendMailingBodySchema), response: { 200: MailingSchema } };
export const recipientsSchema = { params, querystring: RecipientsQuerySchema, response: { 200: RecipientsPageSchema } };
export const byIdSchema = { params };
