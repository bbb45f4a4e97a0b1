// Errors of one form: client-side problems and the server's Djoser errors, per field and above
// the form, translated.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../../../contract/constants';
import type { ApiFailure } from '@/api/failure';
import { loadMessages } from '@/i18n/i18n';
import type { FieldProblem, Problems } from './validation';

export interface FormErrors {
  fields: Record<string, string[]>;
  messages: string[];
}

const NONE: FormErrors = { fields: {}, messages: [] };

export function useFormErrors() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FormErrors>(NONE);

  const describe = useCallback(
    (problem: FieldProblem): string =>
      problem === 'passwordLength' ? t('validation.passwordLength', { count: PASSWORD_MIN_LENGTH }) : t(`validation.${problem}`),
    [t],
  );

  /** Shows client-side problems (field name → problem). */
  const showProblems = useCallback(
    <K extends string>(found: Problems<K>) => {
      const fields: Record<string, string[]> = {};
      for (const [field, problem] of Object.entries(found) as Array<[K, FieldProblem | undefined]>) {
        if (problem) fields[field] = [describe(problem)];
      }
      setErrors({ fields, messages: [] });
    },
    [describe],
  );

  /**
   * Shows a failed call's errors next to the fields (known `fields` only) and above the form.
   * Field errors for fields the form does not have go above the form too. The server's messages
   * are shown in the interface language when they are ones we know, as sent otherwise; what that
   * takes (the message table, which comes with the API module, and the serverErrors strings) is
   * fetched after the first paint, and at the latest here.
   */
  const showFailure = useCallback(
    async (failure: ApiFailure, formFields: readonly string[]) => {
      if (failure.kind !== 'http') return setErrors(NONE); // already in the top notice
      let serverMessage = (message: string) => message;
      try {
        const [{ knownServerMessage }] = await Promise.all([import('@/api/serverMessages'), loadMessages('serverErrors')]);
        serverMessage = (message) => {
          const key = knownServerMessage(message);
          return key ? t(`serverErrors.${key}`) : message;
        };
      } catch {
        // Not loaded (connection lost since the answer came): the messages as the server sent them.
      }
      const fields: Record<string, string[]> = {};
      const messages = failure.messages.map(serverMessage);
      for (const [field, list] of Object.entries(failure.fields)) {
        const translated = list.map(serverMessage);
        if (formFields.includes(field)) fields[field] = translated;
        else messages.push(...translated);
      }
      setErrors({ fields, messages });
    },
    [t],
  );

  const clearField = useCallback((field: string) => {
    setErrors((current) => {
      if (!current.fields[field]) return current;
      const { [field]: _removed, ...rest } = current.fields;
      return { fields: rest, messages: current.messages };
    });
  }, []);

  const clear = useCallback(() => setErrors(NONE), []);

  return { errors, showProblems, showFailure, clearField, clear };
}
