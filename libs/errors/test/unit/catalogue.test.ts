// The PKC catalogue is public API. This test keeps three copies of it in step: the spec (the
// contract), libs/errors/src/catalogue.ts (what the code answers) and docs/partner-guide.md (what
// partners read). Every code with its HTTP status must be in all three, and nothing else; a code the
// catalogue adds to the spec (codesAddedToTheSpec) is in the catalogue and the guide only.
import fs from 'node:fs';
import path from 'node:path';
import { allPkcCodes, codesAddedToTheSpec, errorCatalogue } from '@pwa/errors';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const specCandidates = [
  path.resolve(repoRoot, '..', 'shared', 'spec', 'partner-wallet-api.md'),
  // A copy kept in the repo, for a checkout without shared/ beside it.
  path.join(repoRoot, 'docs', 'spec', 'partner-wallet-api.md'),
];
const partnerGuideFile = path.join(repoRoot, 'docs', 'partner-guide.md');

const codePattern = /^PKC_\d{4}$/;
const statusPattern = /^[1-5]\d{2}$/;

function readSpec(): string {
  const found = specCandidates.find((file) => fs.existsSync(file));
  if (found === undefined) throw new Error(`spec not found; looked at:\n  ${specCandidates.join('\n  ')}`);
  return fs.readFileSync(found, 'utf8');
}

/**
 * Codes defined by markdown tables, with every HTTP status each is given. A row defines a code when
 * one cell is exactly the code and either another cell is an HTTP status or the section heading
 * names one ("..., HTTP 400"). Rows that only refer to a code (the Limits tables) have neither.
 */
function statusesDefinedInTables(markdown: string): Map<string, number[]> {
  const statuses = new Map<string, number[]>();
  let headingStatus: number | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading !== null) {
      const status = /\bHTTP (\d{3})\b/.exec(heading[1] ?? '');
      headingStatus = status === null ? undefined : Number(status[1]);
      continue;
    }
    if (!line.trimStart().startsWith('|')) continue;
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
    const code = cells.find((cell) => codePattern.test(cell));
    if (code === undefined) continue;
    const statusCell = cells.find((cell) => statusPattern.test(cell));
    const status = statusCell === undefined ? headingStatus : Number(statusCell);
    if (status === undefined) continue;
    statuses.set(code, [...(statuses.get(code) ?? []), status]);
  }
  return statuses;
}

function codesMentioned(markdown: string): Set<string> {
  return new Set(markdown.match(/\bPKC_\d{4}\b/g) ?? []);
}

/** One status per code, or a description of the codes given several different statuses. */
function singleStatuses(defined: Map<string, number[]>): { statuses: Map<string, number>; conflicts: string[] } {
  const statuses = new Map<string, number>();
  const conflicts: string[] = [];
  for (const [code, given] of defined) {
    const distinct = [...new Set(given)];
    if (distinct.length > 1) conflicts.push(`${code}: ${distinct.join(', ')}`);
    statuses.set(code, given[0] as number);
  }
  return { statuses, conflicts };
}

const sortedCodes = (codes: Iterable<string>): string[] => [...codes].sort();

const spec = readSpec();
const specDefinitions = singleStatuses(statusesDefinedInTables(spec));
const specStatuses = specDefinitions.statuses;
const catalogueStatuses = new Map<string, number>(allPkcCodes.map((code) => [code, errorCatalogue[code].httpStatus]));

describe('the PKC catalogue against the spec', () => {
  test('when the spec is parsed, then its tables define the codes of all seven families', () => {
    const families = new Set(sortedCodes(specStatuses.keys()).map((code) => code.slice(0, 5)));
    expect(sortedCodes(families)).toEqual(['PKC_1', 'PKC_2', 'PKC_3', 'PKC_4', 'PKC_5', 'PKC_6', 'PKC_7']);
  });

  test('when the spec mentions a code anywhere, then one of its tables gives that code an HTTP status', () => {
    const undefinedCodes = sortedCodes(codesMentioned(spec)).filter((code) => !specStatuses.has(code));
    expect(undefinedCodes).toEqual([]);
  });

  test('when a code appears in several spec tables, then they agree on its status', () => {
    expect(specDefinitions.conflicts).toEqual([]);
  });

  test('when the spec defines a code, then the catalogue has it with the same HTTP status', () => {
    const mismatches = sortedCodes(specStatuses.keys())
      .filter((code) => catalogueStatuses.get(code) !== specStatuses.get(code))
      .map((code) => `${code}: spec ${specStatuses.get(code)}, catalogue ${catalogueStatuses.get(code) ?? 'missing'}`);
    expect(mismatches).toEqual([]);
  });

  test('when the catalogue has a code, then the spec defines it, unless it is a declared addition', () => {
    const additions = new Set<string>(codesAddedToTheSpec);
    expect(sortedCodes(catalogueStatuses.keys()).filter((code) => !specStatuses.has(code) && !additions.has(code))).toEqual([]);
  });

  test('when the catalogue declares an addition to the spec, then the catalogue has it and the spec does not define it', () => {
    for (const code of codesAddedToTheSpec) {
      expect({ code, inCatalogue: catalogueStatuses.has(code), inSpec: specStatuses.has(code) }).toEqual({ code, inCatalogue: true, inSpec: false });
    }
  });

  test('when a catalogue entry is read, then it has a non-empty default message', () => {
    const withoutMessage = allPkcCodes.filter((code) => errorCatalogue[code].message.trim().length === 0);
    expect(withoutMessage).toEqual([]);
  });
});

describe('the PKC catalogue against the partner guide', () => {
  const guide = fs.readFileSync(partnerGuideFile, 'utf8');
  const guideDefinitions = singleStatuses(statusesDefinedInTables(guide));

  test('when the catalogue has a code, then the guide lists it with the same HTTP status', () => {
    const mismatches = sortedCodes(catalogueStatuses.keys())
      .filter((code) => guideDefinitions.statuses.get(code) !== catalogueStatuses.get(code))
      .map((code) => `${code}: catalogue ${catalogueStatuses.get(code)}, guide ${guideDefinitions.statuses.get(code) ?? 'missing'}`);
    expect(mismatches).toEqual([]);
  });

  test('when the guide mentions a code, then the catalogue has it', () => {
    expect(sortedCodes(codesMentioned(guide)).filter((code) => !catalogueStatuses.has(code))).toEqual([]);
  });

  test('when the guide lists a code in several tables, then they agree on its status', () => {
    expect(guideDefinitions.conflicts).toEqual([]);
  });
});
