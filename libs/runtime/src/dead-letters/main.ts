import { connect, type ChannelModel } from 'amqplib';
import { fields, loadConfig, z } from '@pwa/config';
import { runOperatorCli } from '../operator-cli';
import { DeadLetterReplayError, listDeadLetters, replayDeadLetters, type DeadLetterListing, type ReplayReport } from './dead-letter-queue';

/**
 * The dead-letter operator CLI (`npm run operator -- list-dead-letters | replay-dead-letters`). It
 * belongs to no service: it talks to the broker only, with the AMQP_URL and BUS_EXCHANGE the
 * services use. Exit codes as every operator CLI: 0 done, 1 failed, 2 usage.
 */
const usage = `Dead letters (RabbitMQ, AMQP_URL and BUS_EXCHANGE as the services use them):
  list-dead-letters [--exchange <name>]
      Counts the messages in <exchange>.dead-letter by the queue they died in, and why.
  replay-dead-letters --queue <queue> [--limit N] [--dry-run] [--exchange <name>]
      Moves that queue's dead letters back to it, one at a time with a broker confirm, the original
      body and headers kept and the death bookkeeping removed (its delivery limit starts over).
      --queue <exchange>.dead-letter replays every dead letter, each to the queue it died in.
      Default limit: every one of them among the messages there when the run starts (at most 10000 looked at).
      --dry-run counts what would be replayed and changes nothing.
Options: --json (one JSON object on stdout), --help
`;

class DeadLetterUsageError extends Error {}

const configSchema = z.object({
  AMQP_URL: fields.amqpUrl,
  BUS_EXCHANGE: fields.busExchange,
});

interface Context {
  model: ChannelModel;
  exchange: string;
}

runOperatorCli<Context>({
  usage,
  stringOptions: ['queue', 'limit', 'exchange'],
  booleanOptions: ['dry-run'],
  isUsageError: (error) => error instanceof DeadLetterUsageError,
  open: async () => {
    const config = loadConfig(configSchema, process.env);
    const model = await connect(config.AMQP_URL, { clientProperties: { connection_name: 'dead-letter-operator-cli' } });
    model.on('error', () => undefined);
    return { context: { model, exchange: config.BUS_EXCHANGE }, close: () => model.close().catch(() => undefined) };
  },
  run: async (context, command, args, options) => {
    if (args.length > 0) throw new DeadLetterUsageError(`unexpected argument ${args[0] ?? ''}`);
    const exchange = options.exchange ?? context.exchange;
    switch (command) {
      case 'list-dead-letters': {
        const listing = await listDeadLetters(context.model, exchange);
        return { data: listing, text: listingText(listing) };
      }
      case 'replay-dead-letters': {
        const queue = options.queue;
        if (queue === undefined || queue === '') throw new DeadLetterUsageError('--queue <queue> is required');
        const limit = parseLimit(options.limit);
        try {
          const report = await replayDeadLetters(context.model, { exchange, queue, limit, dryRun: options.dryRun === 'true' });
          return { data: report, text: replayText(report) };
        } catch (error) {
          if (error instanceof DeadLetterReplayError) return { data: { error: error.message, replayed: error.replayedBeforeFailure }, text: `error: ${error.message}`, exitCode: 1 };
          throw error;
        }
      }
      default:
        throw new DeadLetterUsageError(`unknown command ${command}`);
    }
  },
});

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new DeadLetterUsageError('--limit must be a positive integer');
  return limit;
}

function listingText(listing: DeadLetterListing): string {
  const lines = [`${listing.deadLetterQueue}: ${listing.total} message(s)${listing.scanned < listing.total ? ` (first ${listing.scanned} looked at)` : ''}`];
  for (const entry of listing.queues) {
    const reasons = Object.entries(entry.reasons).map(([reason, count]) => `${reason} ${count}`).join(', ');
    lines.push(`  ${entry.queue}: ${entry.count} (${reasons})`);
  }
  return lines.join('\n');
}

function replayText(report: ReplayReport): string {
  const what = report.dryRun ? `would replay ${report.matched}` : `replayed ${report.replayed}`;
  return `${what} dead letter(s) of ${report.queue} from ${report.deadLetterQueue} (${report.scanned} of ${report.total} looked at)`;
}
