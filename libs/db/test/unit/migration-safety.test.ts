// Migrations only add (docs/operations.md, "Migrations"): the previous version keeps running on the
// new schema during a rollout and after a rollback, and no ledger history is lost. This test scans
// every services/*/migrations/*.sql, and libs/bus/migrations/*.sql that every service applies to its
// own schema, and refuses, on a money table, DROP TABLE, TRUNCATE, DROP COLUMN,
// ALTER COLUMN ... TYPE and RENAME, unless the file says why in a marker comment:
//   -- pwa:allow-destructive <reason>
//
// Down sections are not scanned: nothing runs them. migrate() (libs/db/src/migrate.ts) applies
// `up` only, at boot and in the Helm hook Jobs, and a rollback is a code rollback onto the additive
// schema. A Down section exists so a developer can undo a migration on their own database, and it
// necessarily drops what its Up created. The test checks that premise too, so a change that starts
// running Down migrations has to revisit this rule.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../../../..');

/** The tables that hold money or decide it, per service schema. */
const moneyTables: Record<string, string[]> = {
  wallet: ['ledger_accounts', 'wallets', 'transfers', 'entries'],
  collections: ['collection_requests'],
  disbursements: ['disbursements'],
  quotes: ['quotes', 'fee_schedules', 'fee_schedule_revisions'],
};

const marker = /^--[ \t]*pwa:allow-destructive[ \t]+\S.*$/m;

interface Finding {
  table: string;
  operation: string;
  statement: string;
}

/** The Up section of a node-pg-migrate SQL file (everything before "-- Down Migration"). */
function upSection(sql: string): string {
  const down = /^--\s*Down Migration\s*$/im.exec(sql);
  return down ? sql.slice(0, down.index) : sql;
}

/** Statements with comments, string literals and dollar-quoted bodies blanked, split on ';'. */
function statements(sql: string): string[] {
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const rest = sql.slice(index);
    const dollar = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(rest);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end;
    } else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', index + 2);
      index = end === -1 ? sql.length : end + 2;
      out += ' ';
    } else if (rest.startsWith("'")) {
      let end = index + 1;
      while (end < sql.length && !(sql[end] === "'" && sql[end + 1] !== "'")) end += sql[end] === "'" ? 2 : 1;
      index = end + 1;
      out += "''";
    } else if (dollar) {
      const end = sql.indexOf(dollar[0], index + dollar[0].length);
      index = end === -1 ? sql.length : end + dollar[0].length;
      out += '$$';
    } else {
      out += sql[index];
      index += 1;
    }
  }
  return out
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement !== '');
}

const identifier = '(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)';
const qualified = `(?:${identifier}\\.)?${identifier}`;
const bare = (name: string) => name.split('.').pop()!.replace(/"/g, '').toLowerCase();

/** Splits on commas outside parentheses. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth += 1;
    if (character === ')') depth -= 1;
    if (character === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else {
      current += character;
    }
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** What a statement destroys or rewrites on the given tables. */
function destructiveOperations(statement: string, tables: string[]): Finding[] {
  const watched = new Set(tables);
  const findings: Finding[] = [];
  const dropTable = new RegExp(`^DROP TABLE (?:IF EXISTS )?(.+?)(?: CASCADE| RESTRICT)?$`, 'i').exec(statement);
  if (dropTable) {
    for (const name of dropTable[1]!.split(',')) if (watched.has(bare(name.trim()))) findings.push({ table: bare(name.trim()), operation: 'DROP TABLE', statement });
    return findings;
  }
  const truncate = /^TRUNCATE (?:TABLE )?(.+?)(?: RESTART IDENTITY| CONTINUE IDENTITY)?(?: CASCADE| RESTRICT)?$/i.exec(statement);
  if (truncate) {
    for (const name of truncate[1]!.split(',')) {
      const table = bare(name.trim().replace(/^ONLY /i, ''));
      if (watched.has(table)) findings.push({ table, operation: 'TRUNCATE', statement });
    }
    return findings;
  }
  const alter = new RegExp(`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(${qualified})\\s+(.*)$`, 'i').exec(statement);
  if (!alter) return findings;
  const table = bare(alter[1]!);
  if (!watched.has(table)) return findings;
  for (const action of topLevelParts(alter[2]!)) {
    if (/^DROP (?!CONSTRAINT\b)/i.test(action)) findings.push({ table, operation: 'DROP COLUMN', statement });
    else if (new RegExp(`^ALTER (?:COLUMN )?${identifier} (?:SET DATA )?TYPE\\b`, 'i').test(action)) findings.push({ table, operation: 'ALTER COLUMN TYPE', statement });
    else if (/^RENAME (?!CONSTRAINT\b)/i.test(action)) findings.push({ table, operation: 'RENAME', statement });
  }
  return findings;
}

/** The findings of one migration file for a service; none when the file carries the marker. */
function checkMigration(sql: string, service: string): Finding[] {
  const up = upSection(sql);
  if (marker.test(up)) return [];
  return statements(up).flatMap((statement) => destructiveOperations(statement, moneyTables[service] ?? []));
}

/** The SQL files of one migrations folder (relative to the repository), none when it does not exist. */
function sqlFilesIn(folder: string, service: string): { service: string; file: string; sql: string }[] {
  let names: string[];
  try {
    names = readdirSync(path.join(repoRoot, folder)).filter((name) => name.endsWith('.sql'));
  } catch {
    return [];
  }
  return names.map((name) => ({ service, file: `${folder}/${name}`, sql: readFileSync(path.join(repoRoot, folder, name), 'utf8') }));
}

/** Every service's own migrations, and the shared outbox and inbox ones (libs/bus), which hold no money table. */
function migrationFiles(): { service: string; file: string; sql: string }[] {
  const services = readdirSync(path.join(repoRoot, 'services'));
  return [...services.flatMap((service) => sqlFilesIn(`services/${service}/migrations`, service)), ...sqlFilesIn('libs/bus/migrations', 'bus')];
}

describe('migration safety: money tables are only added to', () => {
  const files = migrationFiles();

  it('when every service’s migrations are scanned, then no Up section drops, truncates, retypes or renames a money table or column without the marker', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(files.map(({ file }) => file)).toEqual(expect.arrayContaining(['libs/bus/migrations/1700000000000_outbox-and-inbox.sql', 'libs/bus/migrations/1700000000900_outbox-parking.sql']));
    const findings = files.flatMap(({ service, file, sql }) => checkMigration(sql, service).map((finding) => ({ file, ...finding })));
    expect(findings).toEqual([]);
  });

  it('when the money tables are looked up, then each is created by its service’s migrations (the list is not stale)', () => {
    for (const [service, tables] of Object.entries(moneyTables)) {
      const created = new Set(
        files
          .filter((file) => file.service === service)
          .flatMap((file) => statements(upSection(file.sql)))
          .map((statement) => new RegExp(`^CREATE TABLE (?:IF NOT EXISTS )?(${qualified})`, 'i').exec(statement)?.[1])
          .filter((name): name is string => name !== undefined)
          .map(bare),
      );
      expect({ service, missing: tables.filter((table) => !created.has(table)) }).toEqual({ service, missing: [] });
    }
  });

  it('when the existing Down sections are scanned, then they do drop money tables (which is why only Up is checked), and nothing runs them: migrate() applies up only', () => {
    const downFindings = files.flatMap(({ service, sql }) => {
      const down = sql.slice(upSection(sql).length);
      return statements(down).flatMap((statement) => destructiveOperations(statement, moneyTables[service] ?? []));
    });
    expect(downFindings.map((finding) => finding.table)).toEqual(expect.arrayContaining(['entries', 'disbursements', 'collection_requests', 'quotes']));
    const runner = readFileSync(path.join(repoRoot, 'libs/db/src/migrate.ts'), 'utf8');
    expect(runner).toContain("direction: 'up'");
    expect(runner).not.toMatch(/direction:\s*'down'/);
  });

  describe('the scanner itself', () => {
    const check = (up: string, service = 'wallet') => checkMigration(`-- Up Migration\n${up}\n-- Down Migration\nDROP TABLE entries;\n`, service).map((finding) => `${finding.operation} ${finding.table}`);

    it.each([
      ['DROP TABLE entries;', 'DROP TABLE entries'],
      ['DROP TABLE IF EXISTS wallet.transfers CASCADE;', 'DROP TABLE transfers'],
      ['TRUNCATE ledger_accounts;', 'TRUNCATE ledger_accounts'],
      ['ALTER TABLE entries DROP COLUMN amount_minor;', 'DROP COLUMN entries'],
      ['ALTER TABLE ONLY "wallets" DROP currency;', 'DROP COLUMN wallets'],
      ['ALTER TABLE entries\n  ADD COLUMN note text,\n  ALTER COLUMN amount_minor TYPE numeric(20, 0);', 'ALTER COLUMN TYPE entries'],
      ['ALTER TABLE transfers ALTER amount_minor SET DATA TYPE integer;', 'ALTER COLUMN TYPE transfers'],
      ['ALTER TABLE transfers RENAME COLUMN amount_minor TO amount;', 'RENAME transfers'],
      ['ALTER TABLE transfers RENAME TO old_transfers;', 'RENAME transfers'],
    ])('when an Up section runs %j, then it is refused', (sql, expected) => {
      expect(check(sql)).toEqual([expected]);
    });

    it.each([
      ['ALTER TABLE entries ADD COLUMN note text;'],
      ['ALTER TABLE entries DROP CONSTRAINT entries_note_check, ADD CONSTRAINT entries_note_check CHECK (note <> \'\');'],
      ['ALTER TABLE entries RENAME CONSTRAINT a TO b;'],
      ['ALTER TABLE users DROP COLUMN nickname;'],
      ['ALTER TABLE closed_wallets ALTER COLUMN reason TYPE text;'],
      ["CREATE FUNCTION f() RETURNS void AS $$ BEGIN DROP TABLE entries; END $$ LANGUAGE plpgsql;"],
      ["COMMENT ON TABLE entries IS 'never DROP TABLE entries; here';"],
      ['-- DROP TABLE entries;\nSELECT 1;'],
      ['ALTER TABLE entries ALTER COLUMN note DROP NOT NULL;'],
    ])('when an Up section runs %j, then it is allowed', (sql) => {
      expect(check(sql)).toEqual([]);
    });

    it('when a money table of another service has the same name as a table here, then only the owner’s tables count', () => {
      expect(check('DROP TABLE quotes;', 'wallet')).toEqual([]);
      expect(check('DROP TABLE quotes;', 'quotes')).toEqual(['DROP TABLE quotes']);
    });

    it('when the file carries the marker with a reason, then the destructive Up section is allowed, and without a reason it is not', () => {
      expect(check('-- pwa:allow-destructive entries.legacy_note was never read (issue 99)\nALTER TABLE entries DROP COLUMN legacy_note;')).toEqual([]);
      expect(check('-- pwa:allow-destructive\nALTER TABLE entries DROP COLUMN legacy_note;')).toEqual(['DROP COLUMN entries']);
    });
  });
});
