import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { LocationProvider, Route, Router, lazy, useLocation } from 'preact-iso';
import { anonymous, closeSubscriptions, request } from './api/client';
import { useLoad } from './api/hooks';
import { EndSessionDoc, LogoutDoc, OrgsDoc } from './api/ops';
import { refresh, session, signOut } from './api/session';
import { useSignal } from './api/signal';
import { Loading } from './ui/kit';
import { lastOrgKey } from './routes';
import { Login, Signup } from './screens/auth';
import { Orgs } from './screens/orgs';
import { Projects } from './screens/projects';
import { ProjectOverview } from './screens/project';
import { Keys } from './screens/keys';
import { Runs, RunDetail } from './screens/certification';
import { Usage } from './screens/usage';
import { Audit } from './screens/audit';
import { Workbench } from './screens/workbench';
import { NotFound } from './screens/notfound';

// Screens loaded on demand, so the first page does not wait for them.
const Invoices = lazy(() => import('./screens/invoices').then((m) => m.Invoices));
const InvoiceDetail = lazy(() => import('./screens/invoices').then((m) => m.InvoiceDetail));
const Webhooks = lazy(() => import('./screens/webhooks').then((m) => m.Webhooks));
const WebhookDeliveries = lazy(() => import('./screens/webhooks').then((m) => m.WebhookDeliveries));
const SandboxFaults = lazy(() => import('./screens/faults').then((m) => m.SandboxFaults));
const Inbox = lazy(() => import('./screens/inbox').then((m) => m.Inbox));

const publicPaths = ['/login', '/signup'];

export function App() {
  return (
    <LocationProvider>
      <Shell />
    </LocationProvider>
  );
}

function Shell() {
  const s = useSignal(session);
  const loc = useLocation();
  useEffect(() => {
    if (s.status === 'unknown') void refresh();
  }, [s.status]);
  const isPublic = publicPaths.includes(loc.path);
  useEffect(() => {
    if (s.status === 'signedOut' && !isPublic) {
      const next = loc.url !== '/' ? `?next=${encodeURIComponent(loc.url)}` : '';
      loc.route(`/login${next}`, true);
    }
  }, [s.status, isPublic, loc.url]);

  if (s.status === 'unknown') {
    return (
      <main id="main" class="center">
        <Loading label="Signing you in…" />
      </main>
    );
  }
  if (isPublic || s.status !== 'signedIn') {
    return (
      <main id="main" class="center">
        <Router>
          <Route path="/login" component={Login} />
          <Route path="/signup" component={Signup} />
          <Route default component={() => <Loading />} />
        </Router>
      </main>
    );
  }
  return (
    <Layout email={s.user?.email ?? ''}>
      <Router>
        <Route path="/" component={Home} />
        <Route path="/orgs" component={Orgs} />
        <Route path="/orgs/:orgId/projects" component={Projects} />
        <Route path="/orgs/:orgId/audit" component={Audit} />
        <Route path="/projects/:projectId" component={ProjectOverview} />
        <Route path="/projects/:projectId/keys" component={Keys} />
        <Route path="/projects/:projectId/certification" component={Runs} />
        <Route path="/projects/:projectId/certification/:runId" component={RunDetail} />
        <Route path="/projects/:projectId/usage" component={Usage} />
        <Route path="/projects/:projectId/workbench" component={Workbench} />
        <Route path="/projects/:projectId/invoices" component={Invoices} />
        <Route path="/projects/:projectId/invoices/:invoiceId" component={InvoiceDetail} />
        <Route path="/projects/:projectId/webhooks" component={Webhooks} />
        <Route path="/projects/:projectId/webhooks/:endpointId" component={WebhookDeliveries} />
        <Route path="/projects/:projectId/sandbox" component={SandboxFaults} />
        <Route path="/projects/:projectId/inbox" component={Inbox} />
        <Route default component={NotFound} />
      </Router>
    </Layout>
  );
}

/** Home opens the organization last used, or the first one. */
function Home() {
  const loc = useLocation();
  const orgs = useLoad(() => request(OrgsDoc), []);
  useEffect(() => {
    const list = orgs.data?.me.organizations.edges.map((e) => e.node.id) ?? [];
    if (!orgs.data) return;
    const last = localStorage.getItem(lastOrgKey);
    const id = list.find((x) => x === last) ?? list[0];
    loc.route(id ? `/orgs/${id}/projects` : '/orgs', true);
  }, [orgs.data]);
  if (orgs.error) return <NotFound error={orgs.error} />;
  return <Loading />;
}

export async function logout(route: (url: string) => void) {
  closeSubscriptions();
  try {
    // Revoke the access token (every API process refuses it within a second)…
    await request(LogoutDoc);
  } catch {
    // …unless it has already expired.
  }
  try {
    // …and end the sign-in, so that the refresh cookie no longer works.
    await anonymous(EndSessionDoc, {});
  } catch {
    // The cookie may already be gone; the session ends here either way.
  }
  signOut();
  route('/login');
}

function Layout(props: { email: string; children: ComponentChildren }) {
  const loc = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          einvoice
        </a>
        <nav aria-label="Account" class="account">
          <a href="/orgs" aria-current={loc.path === '/orgs' ? 'page' : undefined}>
            Organizations
          </a>
          <span class="email" title={props.email}>
            {props.email}
          </span>
          <button type="button" class="secondary" onClick={() => void logout(loc.route)}>
            Log out
          </button>
        </nav>
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}
