// The portal's building blocks: page frame with focus management, form
// fields with their errors, and the loading, empty and error states.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describe } from '../api/errors';

/** Page sets the title and moves focus to the heading after navigation. */
export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren; lead?: ComponentChildren }) {
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · einvoice`;
    h.current?.focus({ preventScroll: false });
  }, [props.title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1} ref={h}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.lead && <p class="lead">{props.lead}</p>}
      {props.children}
    </section>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {props.label ?? 'Loading…'}
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <div class="empty">{props.children}</div>;
}

export function ErrorBox(props: { error: unknown; retry?: () => void }) {
  if (!props.error) return null;
  return (
    <div class="alert error" role="alert">
      <p>{describe(props.error)}</p>
      {props.retry && (
        <button type="button" class="secondary" onClick={props.retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice(props: { kind?: 'ok' | 'warn'; children: ComponentChildren }) {
  return (
    <div class={`alert ${props.kind ?? 'ok'}`} role="status">
      {props.children}
    </div>
  );
}

let fieldSeq = 0;
export function useId(prefix: string) {
  const [id] = useState(() => `${prefix}-${++fieldSeq}`);
  return id;
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label'> & {
  label: string;
  name: string;
  error?: string;
  hint?: ComponentChildren;
};

/** Field is a labelled input whose server-side error shows beneath it. */
export function Field({ label, name, error, hint, ...rest }: InputProps) {
  const id = useId(name);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={described} {...rest} />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

type SelectProps = Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'label'> & {
  label: string;
  name: string;
  error?: string;
  children: ComponentChildren;
};

export function SelectField({ label, name, error, children, ...rest }: SelectProps) {
  const id = useId(name);
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <select id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-error` : undefined} {...rest}>
        {children}
      </select>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** FormErrors shows a form-level error and any problem no field claimed. */
export function FormError(props: { error: unknown; fields?: string[] }) {
  if (!props.error) return null;
  const e = props.error;
  if (e instanceof ApiError && e.code === 'invalid') {
    const fe = e.fieldErrors();
    const rest = Object.entries(fe).filter(([k]) => !props.fields?.includes(k));
    return (
      <div class="alert error" role="alert">
        <p>{e.message}</p>
        {rest.length > 0 && (
          <ul>
            {rest.map(([k, v]) => (
              <li key={k}>
                <code>{k || 'request'}</code>: {v}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return <ErrorBox error={e} />;
}

export function fieldErrors(e: unknown): Record<string, string> {
  return e instanceof ApiError ? e.fieldErrors() : {};
}

/** Confirm is a modal dialog (native <dialog>: focus is trapped and Escape closes it). */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onClose={props.onClose} onCancel={props.onClose}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" class={props.danger ? 'danger' : ''} disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}

/** CopyButton copies text and says so to screen readers. */
export function CopyButton(props: { text: string; label?: string }) {
  const [done, setDone] = useState<'' | 'ok' | 'fail'>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setDone('ok');
    } catch {
      setDone('fail');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="secondary" onClick={copy}>
        {props.label ?? 'Copy'}
      </button>
      <span role="status" aria-live="polite" class="copy-status">
        {done === 'ok' ? 'Copied' : done === 'fail' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}

export function formatTime(t?: string | null) {
  if (!t) return '—';
  const d = new Date(t);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function Badge(props: { tone?: 'ok' | 'warn' | 'bad' | 'info'; children: ComponentChildren }) {
  return <span class={`badge ${props.tone ?? 'info'}`}>{props.children}</span>;
}
