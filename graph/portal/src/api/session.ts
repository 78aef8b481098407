// The signed-in session. The access token lives in memory only (never in
// storage a script could read later); the browser keeps an HttpOnly refresh
// cookie that the server set at login, so that after a reload
// refreshSession gives a new access token. Refreshes are serialized across
// tabs with the Web Locks API: each refresh token works once, and the
// second tab then sends the cookie the first one received.

import { signal } from './signal';

export interface Viewer {
  id: string;
  email: string;
}

export interface SessionState {
  status: 'unknown' | 'signedIn' | 'signedOut';
  token?: string;
  expiresAt?: number;
  user?: Viewer;
}

export const session = signal<SessionState>({ status: 'unknown' });

let refreshTimer: ReturnType<typeof setTimeout> | undefined;

export function signIn(token: string, expiresIn: number, user: Viewer) {
  const expiresAt = Date.now() + expiresIn * 1000;
  session.set({ status: 'signedIn', token, expiresAt, user });
  clearTimeout(refreshTimer);
  // Renew a minute before expiry (at least 10 s from now).
  const inMs = Math.max(10_000, expiresIn * 1000 - 60_000);
  refreshTimer = setTimeout(() => void refresh(), inMs);
}

export function signOut() {
  clearTimeout(refreshTimer);
  session.set({ status: 'signedOut' });
}

type Refresher = () => Promise<{ accessToken: string; expiresIn: number; user: Viewer } | null>;
let refresher: Refresher | undefined;
let inflight: Promise<boolean> | undefined;

export function setRefresher(r: Refresher) {
  refresher = r;
}

/** refresh trades the refresh cookie for a new access token; false when the session is over. */
export function refresh(): Promise<boolean> {
  if (inflight) return inflight;
  const run = async () => {
    if (!refresher) return false;
    const out = await refresher();
    if (!out) {
      signOut();
      return false;
    }
    signIn(out.accessToken, out.expiresIn, out.user);
    return true;
  };
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  const p: Promise<boolean> = locks ? (locks.request('einvoice-session-refresh', run) as unknown as Promise<boolean>) : run();
  inflight = p.finally(() => {
    inflight = undefined;
  });
  return inflight;
}
