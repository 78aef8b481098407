import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { anonymous } from '../api/client';
import { LoginDoc, SignupDoc } from '../api/ops';
import { signIn } from '../api/session';
import { Field, FormError, Page, fieldErrors } from '../ui/kit';
import { lastOrgKey } from '../routes';

function safeNext(q: Record<string, string>) {
  const n = q.next;
  return n && n.startsWith('/') && !n.startsWith('//') ? n : '/';
}

export function Login() {
  const loc = useLocation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const out = await anonymous(LoginDoc, {
        input: { email: String(f.get('email')), password: String(f.get('password')) },
      });
      signIn(out.login.accessToken, out.login.expiresIn, out.login.user);
      loc.route(safeNext(loc.query), true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <div class="auth">
      <Page title="Log in to einvoice">
        <form onSubmit={submit} noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required error={fe.email} />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required error={fe.password} />
          <FormError error={error} fields={['email', 'password']} />
          <button type="submit" disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </button>
        </form>
        <p>
          New here? <a href="/signup">Create an account</a>
        </p>
      </Page>
    </div>
  );
}

export function Signup() {
  const loc = useLocation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const out = await anonymous(SignupDoc, {
        input: {
          email: String(f.get('email')),
          password: String(f.get('password')),
          organizationName: String(f.get('organizationName')),
          organizationSlug: String(f.get('organizationSlug')),
        },
      });
      signIn(out.signup.accessToken, out.signup.expiresIn, out.signup.user);
      if (out.signup.organization) {
        localStorage.setItem(lastOrgKey, out.signup.organization.id);
        loc.route(`/orgs/${out.signup.organization.id}/projects`, true);
      } else loc.route('/', true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <div class="auth">
      <Page title="Create your einvoice account">
        <form onSubmit={submit} noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required error={fe.email} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            hint="At least 8 characters."
            error={fe.password}
          />
          <Field
            label="Organization name"
            name="organizationName"
            required
            autoComplete="organization"
            error={fe.organizationName}
            onInput={(e) => {
              if (!slugEdited) setSlug(slugify((e.currentTarget as HTMLInputElement).value));
            }}
          />
          <Field
            label="Organization slug"
            name="organizationSlug"
            required
            value={slug}
            hint="Lower-case letters and digits in dash-separated groups, such as sango-supplies."
            error={fe.organizationSlug}
            onInput={(e) => {
              setSlugEdited(true);
              setSlug((e.currentTarget as HTMLInputElement).value);
            }}
          />
          <FormError error={error} fields={['email', 'password', 'organizationName', 'organizationSlug']} />
          <button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create account'}
          </button>
        </form>
        <p>
          Have an account? <a href="/login">Log in</a>
        </p>
      </Page>
    </div>
  );
}

export function slugify(s: string) {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}
