import type { HttpsJsonClient } from './https-client';

/**
 * Token requests to every replica in service, ten times a second, while a rotation runs as a
 * rolling update (test/e2e/operator-key-rotation, database-password-rotation): each replica of
 * auth is reached through a gateway of its own, and `serve` says which are in service, as a load
 * balancer does. Each answer is counted under the phase it was sent in; a refusal is kept with its
 * phase, status and text. The loop stops by itself after `limitMs`.
 */
export interface TokenTraffic {
  /** From now on, requests go to these gateways, counted under this phase. */
  serve(phase: string, targets: HttpsJsonClient[]): void;
  /** Ends the loop after its requests in flight; what was issued per phase and what was refused. */
  stop(): Promise<{ issued: Map<string, number>; refused: string[] }>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function startTokenTraffic(credentials: { client_id: string; client_secret: string }, phase: string, targets: HttpsJsonClient[], limitMs = 120_000): TokenTraffic {
  let current = { phase, targets };
  const refused: string[] = [];
  const issued = new Map<string, number>();
  let sending = true;
  const loop = (async () => {
    const deadline = Date.now() + limitMs;
    while (sending && Date.now() < deadline) {
      const { phase: sentIn, targets: inService } = current;
      const answers = await Promise.all(inService.map((client) => client.post('/partner/auth/token', credentials)));
      for (const answer of answers) {
        if (answer.status === 200) issued.set(sentIn, (issued.get(sentIn) ?? 0) + 1);
        else refused.push(`${sentIn}: ${answer.status} ${answer.text.slice(0, 200)}`);
      }
      await pause(100);
    }
  })();
  return {
    serve: (nextPhase, nextTargets) => {
      current = { phase: nextPhase, targets: nextTargets };
    },
    stop: async () => {
      sending = false;
      await loop;
      return { issued, refused };
    },
  };
}
