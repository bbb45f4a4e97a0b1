// Form controls: labelled fields with their errors, the form-level alert, buttons.
import { useId, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { focusOnMount } from '@/ui/focusOnMount';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Messages shown under the field (client checks or the server's field errors). */
  errors?: string[];
  hint?: ReactNode;
}

export function TextField({ label, errors, hint, className, autoFocus, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors && errors.length > 0);
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="field-input" aria-invalid={invalid || undefined} aria-describedby={describedBy} ref={autoFocus ? focusOnMount : undefined} {...input} />
      {hint && !invalid ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {invalid ? (
        <p className="field-error" id={errorId}>
          {errors?.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

export function FormAlert({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="form-alert" role="alert" data-testid="form-alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

type ButtonVariant = 'primary' | 'secondary' | 'plain' | 'destructive';

export function Button({
  variant = 'primary',
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={`button button--${variant}${className ? ` ${className}` : ''}`} {...props} />;
}
