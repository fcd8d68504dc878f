import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Runs oidc-provider-process.mjs (a real oidc-provider) as a child process and answers its issuer URL.
 * Its output is kept for a failing test's message, never printed.
 */
export interface OidcTestAccount {
  email: string;
  email_verified: boolean;
  amr?: string[];
}

export interface OidcTestProvider {
  issuerUrl: string;
  stop(): Promise<void>;
}

export async function startOidcTestProvider(settings: { clientId: string; clientSecret: string; redirectUri: string; accounts: Record<string, OidcTestAccount> }): Promise<OidcTestProvider> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'oidc-provider-process.mjs')], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', OIDC_TEST_PROVIDER: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`the test OpenID provider exited (${String(code)}) before listening: ${output}`)));
  });
  return {
    issuerUrl: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
