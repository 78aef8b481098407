// GraphQL errors as people read them. The server's errors carry
// extensions.code and, for invalid input, extensions.detail = [{loc, msg,
// type}]; fieldErrors maps each loc (without its argument, e.g. "input") to
// its message so that forms show it next to the field.

export interface Problem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface GraphQLErrorShape {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; detail?: Problem[]; retryAfter?: number };
}

const friendly: Record<string, string> = {
  unauthenticated: 'Your session has ended. Log in again.',
  forbidden: 'You are not allowed to do this.',
  not_found: 'Not found, or not yours.',
  rate_limited: 'Too many requests. Wait a moment and try again.',
  unavailable: 'The service is unavailable right now. Try again shortly.',
  internal: 'Something went wrong on our side. Try again; if it persists, contact support.',
  network: 'The server cannot be reached. Check your connection and try again.',
};

export class ApiError extends Error {
  code: string;
  problems: Problem[];
  constructor(code: string, message: string, problems: Problem[] = []) {
    super(message);
    this.code = code;
    this.problems = problems;
  }

  static from(errors: GraphQLErrorShape[]): ApiError {
    const first = errors[0];
    const code = first?.extensions?.code ?? 'internal';
    const problems = errors.flatMap((e) => e.extensions?.detail ?? []);
    let message = first?.message ?? 'Unknown error';
    if (code === 'invalid' && problems.length > 0) message = 'Some fields need your attention.';
    else if (code !== 'conflict' && code !== 'authority_not_configured' && friendly[code] && code !== 'unauthenticated') {
      message = `${friendly[code]}${first?.message && code !== 'internal' ? ` (${first.message})` : ''}`;
    }
    return new ApiError(code, message, problems);
  }

  /** fieldErrors maps "name" or "a.b.0" (the loc after skip leading parts) to a message. */
  fieldErrors(skip: string[] = ['input']): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.problems) {
      let loc = p.loc;
      while (loc.length > 0 && skip.includes(String(loc[0]))) loc = loc.slice(1);
      const key = loc.join('.');
      if (!(key in out)) out[key] = p.msg;
    }
    return out;
  }
}

export function networkError(): ApiError {
  return new ApiError('network', friendly.network);
}

/** Message for anything thrown. */
export function describe(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
