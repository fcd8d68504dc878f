import { spawn } from 'node:child_process';
import path from 'node:path';

/** What oauth4webapi made of a token request or a bearer request (see oauth4webapi-client.mjs). */
export interface Oauth4webapiOutcome {
  ok: boolean;
  accessToken?: string;
  tokenType?: string;
  expiresIn?: number;
  status?: number;
  body?: any;
  /** The error's class name: ResponseBodyError, WWWAuthenticateChallengeError, ... */
  name?: string;
  code?: string;
  /** The RFC 6749 error code the library read from the body. */
  error?: string;
  challenges?: { scheme: string; parameters: Record<string, string> }[];
  wwwAuthenticate?: string;
}

export interface Oauth4webapiPlan {
  issuer: string;
  tokenEndpoint: string;
  caPem: string;
  clientId: string;
  clientSecret: string;
  method: 'client_secret_basic' | 'client_secret_post';
  /** Extra token request parameters (sent in the form body). */
  parameters?: Record<string, string>;
  /** When given and a token was issued, a GET with it as the bearer token. */
  resourceUrl?: string;
}

const scriptPath = path.join(__dirname, 'oauth4webapi-client.mjs');
const childTimeoutMs = 30_000;

/**
 * Runs the plan with oauth4webapi in a child `node` process: the library is ESM only, and Jest here
 * runs CommonJS. Resolves what the library returned or threw.
 */
export function runOauth4webapi(plan: Oauth4webapiPlan): Promise<{ token: Oauth4webapiOutcome; resource?: Oauth4webapiOutcome }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [scriptPath], {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: childTimeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${String(code)}`);
        resolve(JSON.parse(stdout) as { token: Oauth4webapiOutcome; resource?: Oauth4webapiOutcome });
      } catch (error) {
        reject(new Error(`the oauth4webapi client failed (${(error as Error).message}): ${stdout}${stderr}`));
      }
    });
    child.stdin.end(JSON.stringify(plan));
  });
}
