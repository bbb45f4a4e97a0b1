// Whether someone has signed in on this device before: the sign-in screen greets them with
// "Welcome back", and a first-time visitor with a plain "Sign in". Only a hint, so storage that
// is blocked (privacy modes) reads as a first visit.
const SIGNED_IN_BEFORE_KEY = 'funnels.signedInBefore';

export function hasSignedInBefore(): boolean {
  try {
    return window.localStorage.getItem(SIGNED_IN_BEFORE_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberSignedIn(): void {
  try {
    window.localStorage.setItem(SIGNED_IN_BEFORE_KEY, '1');
  } catch {
    // storage blocked: the next visit reads "Sign in", which is still right
  }
}
