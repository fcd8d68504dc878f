import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The built package as a partner's app loads it, by its name, in a separate Node process: through
 * require() (dist/cjs) and through import() (dist/esm), with the same exports; and with no runtime
 * dependency. It reads the build of `npm run build` (npm test builds before jest).
 */
const repoRoot = path.resolve(__dirname, '../../..');
const sdkRoot = path.join(repoRoot, 'sdk');

function runNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 });
}

const probe = `
  const exampleSecret = ${JSON.stringify('whsec_1bdVGd2Wts0bjsXRig29h+zLRfQQqKAoDiQC20w9pk0=')};
  const body = ${JSON.stringify(
    '{"event":"collection.completed","referenceId":"PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E","externalId":"order-1001","amount":25.5,"currency":"USD","fee":0.26,"status":"completed","transactionId":"TXN-3C9A0F7B12E45D68","timestamp":"2024-06-10T06:15:02.000Z"}',
  )};
  const headers = { 'webhook-id': '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6', 'webhook-timestamp': '1718000102', 'webhook-signature': 'v1,Xu9uojkSrMjSTeKZcOf+Ppt3EYgZnpGiVaQKhCKwxFI=' };
  const event = sdk.verifyWebhook(body, headers, exampleSecret, { now: () => 1718000102000 });
  const client = new sdk.PartnerApiClient({ baseUrl: 'https://example.test/api/v1', clientId: 'c', clientSecret: 's' });
  console.log(JSON.stringify({ exports: Object.keys(sdk).filter((name) => name !== 'default' && name !== '__esModule').sort(), event: event.event, transfer: typeof client.transferDisbursement, errorName: new sdk.PartnerApiError({ code: 'PKC_7001', status: 429, message: 'm', operationId: 'getBalance', attempts: 1, outcomeUnknown: false }).name }));
`;

describe('the built package', () => {
  beforeAll(() => {
    if (!existsSync(path.join(sdkRoot, 'dist/cjs/index.js')) || !existsSync(path.join(sdkRoot, 'dist/esm/index.js'))) {
      throw new Error('sdk/dist is missing: run `npm run build` first');
    }
  });

  test('when it is loaded with require() and with import() by its name, then each resolves to its own build and both export the same working API', () => {
    const required = JSON.parse(runNode(['-e', `const sdk = require('@partner-wallet/sdk'); ${probe}`]));
    const imported = JSON.parse(runNode(['--input-type=module', '-e', `const sdk = await import('@partner-wallet/sdk'); ${probe}`]));
    const resolvedByImport = runNode(['--input-type=module', '-e', `console.log(import.meta.resolve('@partner-wallet/sdk'))`]).trim();
    const resolvedByRequire = runNode(['-e', `console.log(require.resolve('@partner-wallet/sdk'))`]).trim();

    expect(resolvedByRequire).toBe(path.join(sdkRoot, 'dist/cjs/index.js'));
    expect(resolvedByImport).toBe(`file://${path.join(sdkRoot, 'dist/esm/index.js')}`);
    expect(required).toEqual(imported);
    expect(required).toMatchObject({ event: 'collection.completed', transfer: 'function', errorName: 'PartnerApiError' });
    expect(required.exports).toEqual(expect.arrayContaining(['PartnerApiClient', 'PartnerApiError', 'isPartnerApiError', 'verifyWebhook', 'WebhookVerificationError', 'paginate', 'operationTable']));
  });

  test('when the ESM build is read, then it is ES module syntax (export, import with .js paths), not CommonJS', () => {
    const esm = readFileSync(path.join(sdkRoot, 'dist/esm/client.js'), 'utf8');
    expect(esm).toMatch(/^export class PartnerApiClient/m);
    expect(esm).toMatch(/from '\.\/errors\.js';/);
    expect(esm).not.toMatch(/require\(/);
  });

  test('when its manifest and built files are read, then there is no runtime dependency: only node: built-ins and its own files are imported', () => {
    const manifest = JSON.parse(readFileSync(path.join(sdkRoot, 'package.json'), 'utf8'));
    expect({ dependencies: manifest.dependencies, peerDependencies: manifest.peerDependencies, optionalDependencies: manifest.optionalDependencies }).toEqual({});

    const specifiers = new Set<string>();
    for (const build of ['dist/cjs', 'dist/esm']) {
      const directory = path.join(sdkRoot, build);
      const files = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
      for (const file of files) {
        const text = readFileSync(path.join(directory, file), 'utf8');
        for (const match of text.matchAll(/(?:require\(|from |import\()\s*['"]([^'"]+)['"]/g)) specifiers.add(match[1] ?? '');
      }
    }
    const outside = [...specifiers].filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
    expect(outside).toEqual([]);
    expect(specifiers).toContain('node:crypto');
  });
  test('when a TypeScript project with module node16 imports it from an .mts file and requires it from a .cts file, then each finds its own declarations and both type-check strictly', () => {
    const consumer = mkdtempSync(path.join(os.tmpdir(), 'sdk-consumer-'));
    try {
      mkdirSync(path.join(consumer, 'node_modules/@partner-wallet'), { recursive: true });
      symlinkSync(sdkRoot, path.join(consumer, 'node_modules/@partner-wallet/sdk'));
      symlinkSync(path.join(repoRoot, 'node_modules/@types'), path.join(consumer, 'node_modules/@types'));
      writeFileSync(
        path.join(consumer, 'esm.mts'),
        [
          "import { PartnerApiClient, isPartnerApiError, type AnswerOf } from '@partner-wallet/sdk';",
          "const client = new PartnerApiClient({ baseUrl: 'https://example.test/api/v1', clientId: 'a', clientSecret: 'b' });",
          "export async function usd(): Promise<AnswerOf<'getBalance'>['USD']> {",
          '  try { return (await client.getBalance()).USD; } catch (error) { if (isPartnerApiError(error)) return error.status; throw error; }',
          '}',
        ].join('\n'),
      );
      writeFileSync(
        path.join(consumer, 'cjs.cts'),
        [
          "import sdk = require('@partner-wallet/sdk');",
          "const client = new sdk.PartnerApiClient({ baseUrl: 'https://example.test/api/v1', clientId: 'a', clientSecret: 'b' });",
          'export const send = (quoteId: string, externalId: string): Promise<string> => client.transferDisbursement({ quoteId, externalId }).then((transfer) => transfer.referenceId);',
        ].join('\n'),
      );
      const compilerOptions = { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: false };
      writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['esm.mts', 'cjs.cts'] }));

      const trace = runNode([path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', consumer, '--traceResolution']);

      expect(trace).toContain(`'@partner-wallet/sdk' was successfully resolved to '${path.join(sdkRoot, 'dist/esm/index.d.ts')}'`);
      expect(trace).toContain(`'@partner-wallet/sdk' was successfully resolved to '${path.join(sdkRoot, 'dist/cjs/index.d.ts')}'`);
    } finally {
      rmSync(consumer, { recursive: true, force: true });
    }
  });
});
