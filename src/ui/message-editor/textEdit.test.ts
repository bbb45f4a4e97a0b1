import { describe, expect, it } from 'vitest';
import { visibleText } from '../../../contract/telegram-html';
import { linkOpenTag, wrapSelection } from './textEdit';

describe('wrapSelection', () => {
  it('wraps the selection and keeps it selected inside the tags', () => {
    const edit = wrapSelection('say hello now', 4, 9, '<b>', '</b>');
    expect(edit.value).toBe('say <b>hello</b> now');
    expect(edit.value.slice(edit.selectionStart, edit.selectionEnd)).toBe('hello');
  });

  it('inserts an empty pair with the caret inside when nothing is selected', () => {
    const edit = wrapSelection('ab', 1, 1, '<i>', '</i>');
    expect(edit.value).toBe('a<i></i>b');
    expect(edit.selectionStart).toBe(4);
    expect(edit.selectionEnd).toBe(4);
  });

  it('leaves whitespace at the edges of the selection outside the tags', () => {
    const edit = wrapSelection('one two three', 3, 8, '<u>', '</u>');
    expect(edit.value).toBe('one <u>two</u> three');
  });

  it('accepts a selection made backwards and clamps it to the text', () => {
    expect(wrapSelection('abc', 3, 1, '<b>', '</b>').value).toBe('a<b>bc</b>');
    expect(wrapSelection('abc', 2, 99, '<b>', '</b>').value).toBe('ab<b>c</b>');
  });

  it('makes link tags with the address escaped', () => {
    const edit = wrapSelection('docs', 0, 4, linkOpenTag(' https://x.io/?q="a"&b '), '</a>');
    expect(edit.value).toBe('<a href="https://x.io/?q=&quot;a&quot;&amp;b">docs</a>');
    expect(visibleText(edit.value)).toBe('docs');
  });
});
