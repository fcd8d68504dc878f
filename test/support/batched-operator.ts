import { OperatorBatch } from '../../scripts/lib/operator-batch';
import type { OperatorService } from '../../scripts/lib/operator-cli';

/** What one operator command answered: its exit code and the JSON it printed. */
export interface OperatorAnswer {
  code: number;
  json: any;
}

/**
 * A service's operator CLI for a test file's many commands with the same settings: one `batch`
 * process runs them in order, each through the CLI's own parsing and code, so the file pays for one
 * process start and one migration check instead of one per command. Whatever is about the process
 * itself (its stderr notices, another environment, missing settings) still needs a process of its own.
 */
export class BatchedOperator {
  private batch: OperatorBatch | undefined;

  constructor(
    private readonly service: OperatorService,
    private readonly env: () => NodeJS.ProcessEnv,
  ) {}

  async run(...args: string[]): Promise<OperatorAnswer> {
    this.batch ??= new OperatorBatch(this.service, this.env());
    const { exitCode, json } = await this.batch.run(args);
    return { code: exitCode ?? -1, json };
  }

  /** Ends the process (before the test database is dropped). */
  async close(): Promise<void> {
    await this.batch?.close();
    this.batch = undefined;
  }
}
