// The dialog that edits one small thing of a funnel (a tag, a keyword, a source): its fields in a
// form that Enter submits, the form's own errors above them, Save and Cancel. The fields and the
// saving are the caller's.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslatedFailure } from '@/api/useApi';
import { ConfirmDialog } from '@/ui/Dialog';
import { FormAlert } from '@/ui/form';

interface EditDialogProps {
  title: string;
  errors: TranslatedFailure;
  onSave: () => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}

export function EditDialog({ title, errors, onSave, onCancel, children }: EditDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog title={title} confirmLabel={t('funnels.common.save')} cancelLabel={t('funnels.common.cancel')} onConfirm={() => void onSave()} onCancel={onCancel}>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void onSave();
        }}
        noValidate
      >
        <FormAlert messages={errors.messages} />
        {children}
      </form>
    </ConfirmDialog>
  );
}
