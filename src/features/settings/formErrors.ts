// A settings form's errors from a failed call: per field (the form's own) and above the form,
// the server's Djoser messages in the interface language when they are ones we know.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiFailure } from '@/api/failure';
import { loadMessages } from '@/i18n/i18n';

export interface SettingsErrors {
  fields: Record<string, string[]>;
  messages: string[];
}

const NONE: SettingsErrors = { fields: {}, messages: [] };

export function useSettingsErrors() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<SettingsErrors>(NONE);
  const show = useCallback(
    async (failure: ApiFailure, formFields: readonly string[]) => {
      if (failure.kind !== 'http') return setErrors(NONE);
      const [{ knownServerMessage }] = await Promise.all([import('@/api/serverMessages'), loadMessages('serverErrors')]);
      const say = (message: string) => {
        const key = knownServerMessage(message);
        return key ? t(`serverErrors.${key}`) : message;
      };
      const fields: Record<string, string[]> = {};
      const messages = failure.messages.map(say);
      for (const [field, list] of Object.entries(failure.fields)) {
        if (formFields.includes(field)) fields[field] = list.map(say);
        else messages.push(...list.map(say));
      }
      setErrors({ fields, messages });
    },
    [t],
  );
  return { errors, setErrors, show, clear: useCallback(() => setErrors(NONE), []) };
}
