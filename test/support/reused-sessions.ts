import type { ConsoleHttpsClient, JsonResponse } from './https-client';

/**
 * One signed-in session per person, kept for their next call. Each sign-in spends a TOTP step that
 * works once, so signing the same person in again waits up to 30 s for the next step; a kept
 * session does not. When the kept session can no longer do a call (signed out by a test, its
 * fresh-MFA window gone), the person signs in again and the call is made once more: a refusal that
 * is not about the session repeats and reaches the caller.
 */
export class ReusedSessions<Person extends { signIn(): Promise<ConsoleHttpsClient> }> {
  private readonly sessions = new Map<Person, Promise<ConsoleHttpsClient>>();

  /** The person's kept session, signed in on first use. */
  session(person: Person): Promise<ConsoleHttpsClient> {
    return this.sessions.get(person) ?? this.renew(person);
  }

  async post(person: Person, path: string, json: unknown): Promise<JsonResponse> {
    const kept = this.sessions.get(person);
    if (kept !== undefined) {
      const answer = await (await kept).post(path, json);
      if (answer.status < 400) return answer;
    }
    return (await this.renew(person)).post(path, json);
  }

  private renew(person: Person): Promise<ConsoleHttpsClient> {
    const fresh = person.signIn();
    this.sessions.set(person, fresh);
    fresh.catch(() => this.sessions.delete(person));
    return fresh;
  }
}
