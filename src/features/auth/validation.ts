// Client-side checks before a form is sent (the server checks again, Django-style).
import { PASSWORD_MIN_LENGTH } from '../../../contract/constants';

export type FieldProblem = 'required' | 'email' | 'passwordLength' | 'passwordsMismatch';
export type Problems<K extends string> = Partial<Record<K, FieldProblem>>;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string): FieldProblem | undefined {
  if (!value.trim()) return 'required';
  if (!EMAIL_SHAPE.test(value.trim())) return 'email';
  return undefined;
}

export function checkNewPassword(value: string): FieldProblem | undefined {
  if (!value) return 'required';
  if (value.length < PASSWORD_MIN_LENGTH) return 'passwordLength';
  return undefined;
}

export function checkRepeat(password: string, repeat: string): FieldProblem | undefined {
  if (!repeat) return 'required';
  if (password !== repeat) return 'passwordsMismatch';
  return undefined;
}

export function checkRequired(value: string): FieldProblem | undefined {
  return value.trim() ? undefined : 'required';
}

/** Drops the fields without a problem; an empty result means the form may be sent. */
export function problems<K extends string>(checks: Record<K, FieldProblem | undefined>): Problems<K> {
  const found: Problems<K> = {};
  for (const key of Object.keys(checks) as K[]) {
    const problem = checks[key];
    if (problem) found[key] = problem;
  }
  return found;
}

export function hasProblems<K extends string>(found: Problems<K>): boolean {
  return Object.keys(found).length > 0;
}
