// The preflight (scripts/lib/preflight.js) stays plain JavaScript: it runs before anything is
// installed or built. This is its typed face for the TypeScript scripts, which load that very file
// (not a compiled copy), so the two never disagree about the servers' defaults.
import path from 'node:path';
import { repoRoot } from './repo-root';

export interface ServerUrls {
  databaseUrl: string;
  amqpUrl: string;
  redisUrl: string;
}

/** One server as checkServers reports it. */
export interface ServerCheck {
  id: string;
  name: string;
  variable: string;
  host: string;
  port: number;
  url: string;
  reachable: boolean;
  explicit: boolean;
  local: boolean;
}

interface PreflightModule {
  defaultServerUrls: Readonly<ServerUrls>;
  displayUrl(raw: string): string;
  canConnect(host: string, port: number, timeoutMs?: number): Promise<boolean>;
  checkServers(settings: ServerUrls, env?: NodeJS.ProcessEnv): Promise<ServerCheck[]>;
  describeUnreachable(results: ServerCheck[]): string[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const preflight = require(path.join(repoRoot, 'scripts', 'lib', 'preflight.js')) as PreflightModule;
