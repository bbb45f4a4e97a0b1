// The message text as the subscriber will see it while it is written: Tiptap (ProseMirror) with
// only what Telegram can show (bold, italic, underline, strikethrough, spoiler, code, quote,
// links) and personalisation chips. The value in and out is Telegram HTML (telegramDoc.ts); this
// module and Tiptap load with the editor screens only.
import { Editor, Mark, mergeAttributes, Node } from '@tiptap/core';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Code from '@tiptap/extension-code';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Italic from '@tiptap/extension-italic';
import Link from '@tiptap/extension-link';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import Text from '@tiptap/extension-text';
import Underline from '@tiptap/extension-underline';
import { Placeholder, UndoRedo } from '@tiptap/extensions';
import { useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_MAX, PERSON_FIELDS, type PersonField } from '../../../contract/personalise';
import { Button } from '@/ui/form';
import { focusOnMount } from '@/ui/focusOnMount';
import { fromTelegramHtml, isPersonField, toTelegramHtml } from './telegramDoc';

/** Addresses a link or a URL button may open (as the server checks them). */
export const LINK_URL = /^(https?:\/\/[^\s/$.?#][^\s]*|tg:\/\/[^\s]+)$/i;

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    spoiler: { toggleSpoiler: () => ReturnType };
    variable: { insertVariable: (field: PersonField, fallback: string) => ReturnType };
  }
}

/** Telegram's spoiler: hidden until tapped. */
const Spoiler = Mark.create({
  name: 'spoiler',
  parseHTML: () => [{ tag: 'tg-spoiler' }, { tag: 'span.tg-spoiler' }],
  renderHTML: ({ HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes, { class: 'editor-spoiler' }), 0],
  addCommands() {
    return { toggleSpoiler: () => ({ commands }) => commands.toggleMark(this.name) };
  },
  addKeyboardShortcuts() {
    return { 'Mod-Shift-p': () => this.editor.commands.toggleSpoiler() };
  },
});

/** A personalisation chip: `{first_name}` in the stored HTML, the field's name on screen. */
const Variable = Node.create<{ labels: Record<PersonField, string> }>({
  name: 'variable',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addOptions: () => ({ labels: { first_name: 'first_name', last_name: 'last_name', username: 'username', person_id: 'person_id' } }),
  addAttributes: () => ({
    field: { default: 'first_name', parseHTML: (element) => element.getAttribute('data-field'), renderHTML: (attrs) => ({ 'data-field': attrs.field }) },
    fallback: { default: '', parseHTML: (element) => element.getAttribute('data-fallback') ?? '', renderHTML: (attrs) => ({ 'data-fallback': attrs.fallback }) },
  }),
  parseHTML: () => [{ tag: 'span[data-field]' }],
  renderHTML({ node, HTMLAttributes }) {
    const field = isPersonField(node.attrs.field) ? node.attrs.field : 'first_name';
    const label = this.options.labels[field] + (node.attrs.fallback ? ` · ${String(node.attrs.fallback)}` : '');
    return ['span', mergeAttributes(HTMLAttributes, { class: 'editor-chip', contenteditable: 'false' }), label];
  },
  renderText: ({ node }) => `{${String(node.attrs.field)}${node.attrs.fallback ? `|${String(node.attrs.fallback)}` : ''}}`,
  addCommands() {
    return {
      insertVariable:
        (field, fallback) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: { field, fallback } }),
    };
  },
});

type Tool = 'bold' | 'italic' | 'underline' | 'strike' | 'spoiler' | 'code' | 'blockquote';

interface ActiveMarks extends Record<Tool, boolean> {
  link: boolean;
  href: string;
}

function activeMarks(editor: Editor): ActiveMarks {
  return {
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    underline: editor.isActive('underline'),
    strike: editor.isActive('strike'),
    spoiler: editor.isActive('spoiler'),
    code: editor.isActive('code'),
    blockquote: editor.isActive('blockquote'),
    link: editor.isActive('link'),
    href: (editor.getAttributes('link').href as string | undefined) ?? '',
  };
}

/**
 * What the toolbar shows as pressed, followed through the editor's own events: every change of
 * the document, the selection or the stored marks is a transaction, and each one makes a new
 * editor state, so the marks are worked out once per state (the snapshot must stay the same
 * object between two reads of one state).
 */
function useActive(editor: Editor): ActiveMarks {
  const cached = useRef<{ state: Editor['state']; active: ActiveMarks } | null>(null);
  const subscribe = useCallback(
    (changed: () => void) => {
      editor.on('transaction', changed);
      return () => {
        editor.off('transaction', changed);
      };
    },
    [editor],
  );
  const snapshot = useCallback(() => {
    const { state } = editor;
    if (cached.current?.state !== state) cached.current = { state, active: activeMarks(editor) };
    return cached.current.active;
  }, [editor]);
  return useSyncExternalStore(subscribe, snapshot);
}

export interface RichTextProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  invalid: boolean;
  describedBy: string;
  /** The count and other things shown at the toolbar's end. */
  status: ReactNode;
}

export default function RichText({ id, value, onChange, invalid, describedBy, status }: RichTextProps) {
  const { t } = useTranslation();
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  // The editor is made once, as the component mounts, inside the div below, and destroyed with it
  // (a layout effect: the text is there in the first paint). What it was made with (the first
  // value, the labels, the ids) is what a later render would pass again.
  useLayoutEffect(() => {
    const created = new Editor({
      element: host.current,
      extensions: [
        Document,
        Paragraph,
        Text,
        HardBreak,
        Bold,
        Italic,
        Underline,
        Strike,
        Code,
        Blockquote,
        Spoiler,
        Link.configure({ openOnClick: false, autolink: false, linkOnPaste: true, protocols: ['tg'], HTMLAttributes: { rel: null, target: null } }),
        Variable.configure({ labels: { first_name: t('editor.fields.first_name'), last_name: t('editor.fields.last_name'), username: t('editor.fields.username'), person_id: t('editor.fields.person_id') } }),
        UndoRedo,
        Placeholder.configure({ placeholder: t('funnels.message.textPlaceholder') }),
      ],
      content: fromTelegramHtml(emitted.current),
      editorProps: {
        attributes: {
          id,
          class: 'editor-text editor-rich',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': t('funnels.message.text'),
          'aria-describedby': describedBy,
          'data-testid': 'message-text',
        },
      },
      onUpdate: ({ editor: e }) => {
        const html = toTelegramHtml(e.getJSON());
        emitted.current = html;
        onChangeRef.current(html);
      },
    });
    setEditor(created);
    return () => {
      created.destroy();
      setEditor(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made once per mount (see above)
  }, []);

  // A value set from outside (another stage, a reset) replaces the document. Checked in the same
  // task as the render: a passive effect can run after the next keystroke has already changed
  // the document, and would put the render's older text back over it (letters lost as one types).
  useLayoutEffect(() => {
    if (editor && value !== emitted.current) {
      emitted.current = value;
      editor.commands.setContent(fromTelegramHtml(value), { emitUpdate: false });
    }
  }, [editor, value]);

  useLayoutEffect(() => {
    editor?.view.dom.setAttribute('aria-invalid', invalid ? 'true' : 'false');
  }, [editor, invalid]);

  return (
    <div className="editor">
      {editor ? <Toolbar editor={editor} status={status} /> : null}
      <div ref={host} />
    </div>
  );
}

function Toolbar({ editor, status }: { editor: Editor; status: ReactNode }) {
  const { t } = useTranslation();
  const active = useActive(editor);
  const [panel, setPanel] = useState<'link' | 'variable' | null>(null);
  const tools: Array<{ tool: Tool; label: string; glyph: ReactNode; run: () => void }> = [
    { tool: 'bold', label: t('funnels.message.bold'), glyph: <b>B</b>, run: () => editor.chain().focus().toggleBold().run() },
    { tool: 'italic', label: t('funnels.message.italic'), glyph: <i>I</i>, run: () => editor.chain().focus().toggleItalic().run() },
    { tool: 'underline', label: t('funnels.message.underline'), glyph: <u>U</u>, run: () => editor.chain().focus().toggleUnderline().run() },
    { tool: 'strike', label: t('editor.strike'), glyph: <s>S</s>, run: () => editor.chain().focus().toggleStrike().run() },
    { tool: 'spoiler', label: t('editor.spoiler'), glyph: <span className="editor-tool-spoiler">S</span>, run: () => editor.chain().focus().toggleSpoiler().run() },
    { tool: 'code', label: t('editor.code'), glyph: <code>{'</>'}</code>, run: () => editor.chain().focus().toggleCode().run() },
    { tool: 'blockquote', label: t('editor.quote'), glyph: <span aria-hidden="true">❝</span>, run: () => editor.chain().focus().toggleBlockquote().run() },
  ];
  return (
    <>
      <div className="editor-toolbar" role="toolbar" aria-label={t('funnels.message.formatting')}>
        {tools.map(({ tool, label, glyph, run }) => (
          <button
            key={tool}
            type="button"
            className={`editor-tool${active[tool] ? ' editor-tool--on' : ''}`}
            aria-label={label}
            aria-pressed={active[tool]}
            title={label}
            onMouseDown={(event) => event.preventDefault()}
            onClick={run}
          >
            {glyph}
          </button>
        ))}
        <button
          type="button"
          className={`editor-tool editor-tool--wide${active.link ? ' editor-tool--on' : ''}`}
          aria-pressed={active.link}
          aria-expanded={panel === 'link'}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setPanel(panel === 'link' ? null : 'link')}
          aria-label={t('funnels.message.link')}
        >
          {t('funnels.message.linkShort')}
        </button>
        <button
          type="button"
          className="editor-tool editor-tool--wide"
          aria-expanded={panel === 'variable'}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setPanel(panel === 'variable' ? null : 'variable')}
        >
          {t('editor.insertField')}
        </button>
        {status}
      </div>
      {panel === 'link' ? <LinkBox editor={editor} href={active.href} onClose={() => setPanel(null)} /> : null}
      {panel === 'variable' ? <VariableMenu editor={editor} onClose={() => setPanel(null)} /> : null}
    </>
  );
}

function LinkBox({ editor, href, onClose }: { editor: Editor; href: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(href || 'https://');
  const [error, setError] = useState<string | null>(null);

  function apply(event: FormEvent) {
    event.preventDefault();
    const address = url.trim();
    if (!LINK_URL.test(address)) return setError(t('editor.badLink'));
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: address, marks: [{ type: 'link', attrs: { href: address } }] }).run();
    } else {
      chain.extendMarkRange('link').setLink({ href: address }).run();
    }
    onClose();
  }

  return (
    <div className="link-bar-wrap">
      <div className="link-bar">
        <input
          className={`field-input${error ? ' field-input--invalid' : ''}`}
          type="url"
          inputMode="url"
          value={url}
          aria-label={t('funnels.message.linkUrl')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'link-error' : undefined}
          onChange={(event) => {
            setUrl(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') apply(event);
            if (event.key === 'Escape') onClose();
          }}
          ref={focusOnMount}
        />
        <div className="link-bar-actions">
          <Button className="button--small" onClick={apply}>
            {t('funnels.message.linkInsert')}
          </Button>
          {href ? (
            <Button
              variant="plain"
              className="button--small"
              onClick={() => {
                editor.chain().focus().extendMarkRange('link').unsetLink().run();
                onClose();
              }}
            >
              {t('editor.unlink')}
            </Button>
          ) : (
            <Button variant="plain" className="button--small" onClick={onClose}>
              {t('funnels.common.cancel')}
            </Button>
          )}
        </div>
      </div>
      {error ? (
        <p className="field-error" id="link-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function VariableMenu({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const { t } = useTranslation();
  const [fallback, setFallback] = useState('');
  return (
    <div className="variable-menu" role="group" aria-label={t('editor.insertField')}>
      <p className="field-hint">{t('editor.fieldsHint')}</p>
      <div className="variable-options">
        {PERSON_FIELDS.map((field) => (
          <button
            key={field}
            type="button"
            className="editor-chip editor-chip--button"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              editor.chain().focus().insertVariable(field, fallback.trim()).run();
              onClose();
            }}
          >
            {t(`editor.fields.${field}`)}
          </button>
        ))}
      </div>
      <label className="variable-fallback">
        <span className="field-label">{t('editor.fallback')}</span>
        <input
          className="field-input"
          value={fallback}
          maxLength={FALLBACK_MAX}
          placeholder={t('editor.fallbackPlaceholder')}
          onChange={(event) => setFallback(event.target.value.replace(/[{}|<>]/g, ''))}
        />
      </label>
    </div>
  );
}
