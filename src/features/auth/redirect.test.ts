// Where a visitor returns after signing in: the guard's ?redirect=, or the page kept when they
// signed up (the activation e-mail lies between), taken once; never another site.
import { afterEach, describe, expect, it } from 'vitest';
import { rememberReturn, safeRedirect, takeRememberedReturn } from './redirect';

afterEach(() => localStorage.clear());

describe('the page to return to', () => {
  it('keeps a page of this site across sign-up and gives it back once', () => {
    rememberReturn('/templates/7/');
    expect(takeRememberedReturn()).toBe('/templates/7/');
    expect(takeRememberedReturn()).toBeUndefined();
  });

  it('never keeps another site or a guest page', () => {
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil.example', '/sign-in/', undefined]) {
      rememberReturn(bad);
      expect(takeRememberedReturn()).toBeUndefined();
    }
    expect(safeRedirect('/content/templates/')).toBe('/content/templates/');
  });
});
