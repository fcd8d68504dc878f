import path from 'node:path';
import ts from 'typescript';
import { collectionStatuses as collectionServiceStatuses } from '../../../../services/collections/src/domain/collection-state-machine';
import { accountStatuses as walletAccountStatuses, kycStatuses as walletKycStatuses } from '../../../../services/wallet/src/domain/user';
import { deliveredEventTypes } from '../../../../services/webhooks/src/events/subscriptions';
import { deliveryStatuses } from '../../../../services/webhooks/src/store/delivery-store';
import { accountStatuses, collectionStatuses, kycStatuses, transactionWebhookEventTypes, webhookDeliveryStatuses, webhookEventTypes } from '../../src/public';

const repositoryRoot = path.resolve(__dirname, '../../../..');

/**
 * What the type checker says of one file, checked with the project's own options (tsconfig.json,
 * as `npm run typecheck` does): each error's message. jest strips types without checking them, so
 * a comparison made of types only holds in a test through this.
 */
function typeErrorsOf(fileName: string): string[] {
  const configPath = path.join(repositoryRoot, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repositoryRoot);
  const program = ts.createProgram([fileName], options);
  const sourceFile = program.getSourceFile(fileName);
  if (sourceFile === undefined) throw new Error(`${fileName} is not there to check`);
  return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)].map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the public contract and the services', () => {
  test('when the view types are compared with the public schemas, then they name the same fields (checked by the type checker)', () => {
    expect(typeErrorsOf(path.join(__dirname, 'service-views-and-public-schemas.ts'))).toEqual([]);
  });

  test('when the enumerations are compared, then the contract lists what the services use', () => {
    expect([...transactionWebhookEventTypes]).toEqual([...deliveredEventTypes]);
    expect(webhookEventTypes.filter((type) => !(transactionWebhookEventTypes as readonly string[]).includes(type))).toEqual(['webhook.test']);
    expect([...webhookDeliveryStatuses]).toEqual([...deliveryStatuses]);
    expect([...accountStatuses]).toEqual([...walletAccountStatuses]);
    expect([...kycStatuses]).toEqual([...walletKycStatuses]);
    // 'processing' is internal: partners see it as pending_approval.
    expect([...collectionStatuses]).toEqual(collectionServiceStatuses.filter((status) => status !== 'processing'));
  });
});
