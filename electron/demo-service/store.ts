/**
 * The demo service's data: each account's reports, kept in memory with cached sort orders so
 * that paging through a 10,000-report list costs a slice, not a sort, per request. Optionally
 * persisted to one JSON file (atomic write after every change). Report passwords are stored
 * only as salted scrypt hashes, never in clear.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AppFailure, appError } from '../../shared/errors';
import { writeFileAtomic } from '../core/atomicWrite';
import { PRIVACY_VALUES, REPORT_RESULTS, type SortBy } from '../../shared/model';
import { mixSeed } from './random';
import { analyseUrl, generateReports, urlPool, type StoredReport } from './seed';
import type { CreateFields, ListParams, UpdateFields } from './validation';

/** The fields a test may change on the service's side (StoreReport.edit). */
export type ServiceSideChange = Partial<
  Pick<StoredReport, 'result' | 'privacy' | 'url' | 'project' | 'generated_at'>
>;

/** One account the service knows: its API key and what GET /account answers. */
export interface DemoAccount {
  apiKey: string;
  /** The record GET /account answers; at least id, name and email. */
  account: Record<string, unknown>;
}

/** The password of every seeded password-protected report (only its hash is kept). */
const SEEDED_REPORT_PASSWORD = 'demo-password';
const FILE_FORMAT = 'report-desk-demo-service';
/** Seeded reports per URL, on average: each page analysed again and again has a history. */
const SEEDED_REPORTS_PER_URL = 5;
/** How many distinct filtered lists each account keeps ready for paging. */
const FILTER_MEMO_SIZE = 32;

function hashPassword(password: string): string {
  // A low scrypt cost: this is a demo server, and tests create many protected reports.
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 1024 });
  return `scrypt$1024$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export interface AccountData {
  account: DemoAccount;
  /** The account's id as text: the key of its reports in the data file. */
  fileKey: string;
  /** The account's position in the options, for its own PRNG stream. */
  index: number;
  reports: Map<number, StoredReport>;
  /** Ascending order per sort key, ties by id; built on demand, dropped on any change. */
  sorted: Map<SortBy, StoredReport[]>;
  /** Ascending filtered lists per (sort key, filters); dropped on any change. */
  filtered: Map<string, StoredReport[]>;
}

const StoredReportSchema = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  result: z.enum(REPORT_RESULTS),
  generated_at: z.string(),
  privacy: z.literal(PRIVACY_VALUES),
  project: z.string().nullable(),
  results: z.boolean(),
  score: z.number(),
  summary: z.object({
    title: z.string(),
    issues: z.number(),
    checks: z.array(z.object({ name: z.string(), passed: z.boolean() })),
  }),
  created_at: z.string(),
  updated_at: z.string(),
  password_hash: z.string().nullable(),
});
const DataFileSchema = z.object({
  format: z.literal(FILE_FORMAT),
  version: z.literal(1),
  next_id: z.number().int().positive(),
  accounts: z.record(z.string(), z.array(StoredReportSchema)),
});
type DataFile = z.infer<typeof DataFileSchema>;

const COMPARE: Record<SortBy, (a: StoredReport, b: StoredReport) => number> = {
  id: (a, b) => a.id - b.id,
  generated_at: (a, b) => compareText(a.generated_at, b.generated_at) || a.id - b.id,
  url: (a, b) => compareText(a.url, b.url) || a.id - b.id,
  result: (a, b) => compareText(a.result, b.result) || a.id - b.id,
};

/** Binary (code-unit) order, like a database's default collation; never locale-dependent. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class ReportStore {
  private readonly byKey = new Map<string, AccountData>();
  private readonly ordered: AccountData[] = [];
  private nextId = 1;
  private seededPasswordHash: string | undefined;
  /** Reports in the data file of accounts not configured now: written back, never lost. */
  private otherAccounts: Record<string, StoredReport[]> = {};

  constructor(
    accounts: DemoAccount[],
    private readonly options: {
      seed: number;
      reportsPerAccount?: number;
      dataFile?: string;
      now: () => Date;
    },
  ) {
    accounts.forEach((account, index) => {
      const data: AccountData = {
        account,
        fileKey: String(account.account.id),
        index,
        reports: new Map(),
        sorted: new Map(),
        filtered: new Map(),
      };
      this.byKey.set(account.apiKey, data);
      this.ordered.push(data);
    });

    const saved = options.dataFile ? this.readDataFile(options.dataFile) : null;
    if (saved) {
      this.nextId = saved.next_id;
      this.otherAccounts = { ...saved.accounts };
      for (const data of this.ordered) delete this.otherAccounts[data.fileKey];
    }
    let seededAny = false;
    for (const data of this.ordered) {
      const reports = saved?.accounts[data.fileKey];
      if (reports) {
        for (const report of reports) {
          data.reports.set(report.id, report);
          this.nextId = Math.max(this.nextId, report.id + 1);
        }
      } else {
        const count = options.reportsPerAccount ?? (data.index === 0 ? 300 : 40);
        this.fillWithGenerated(data, count);
        seededAny = true;
      }
    }
    if (options.dataFile && (seededAny || !saved)) this.save();
  }

  accountForKey(apiKey: string): AccountData | undefined {
    return this.byKey.get(apiKey);
  }

  get first(): AccountData {
    return this.ordered[0];
  }

  list(data: AccountData, params: ListParams): { items: StoredReport[]; total: number } {
    const ascending = this.filteredAscending(data, params);
    const total = ascending.length;
    const start = (params.page - 1) * params.perPage;
    const end = Math.min(total, start + params.perPage);
    const items: StoredReport[] = [];
    for (let i = start; i < end; i++)
      items.push(params.sort === 'asc' ? ascending[i] : ascending[total - 1 - i]);
    return { items, total };
  }

  get(data: AccountData, id: number): StoredReport | undefined {
    return data.reports.get(id);
  }

  create(data: AccountData, fields: CreateFields): StoredReport {
    const now = this.options.now().toISOString();
    const report: StoredReport = {
      id: this.nextId++,
      url: fields.url,
      ...analyseUrl(fields.url),
      generated_at: now,
      privacy: fields.privacy,
      project: null,
      results: false,
      created_at: now,
      updated_at: now,
      password_hash: fields.password === null ? null : hashPassword(fields.password),
    };
    data.reports.set(report.id, report);
    this.changed(data);
    return report;
  }

  update(data: AccountData, id: number, fields: UpdateFields): StoredReport | undefined {
    const report = data.reports.get(id);
    if (!report) return undefined;
    if (fields.privacy !== undefined) report.privacy = fields.privacy;
    if (report.privacy !== 2) report.password_hash = null;
    // A new password only means something for a password-protected report.
    else if (fields.password !== undefined) report.password_hash = hashPassword(fields.password);
    if (fields.results !== undefined) report.results = fields.results;
    report.updated_at = this.options.now().toISOString();
    // No sort key or filter field changed, so the cached orders (same objects) stay valid.
    this.save();
    return report;
  }

  delete(data: AccountData, id: number): boolean {
    const deleted = data.reports.delete(id);
    if (deleted) this.changed(data);
    return deleted;
  }

  /**
   * A change made on the service's side, not through the API (a report re-analysed, its privacy
   * changed elsewhere): for tests of what a client notices. Answers the report, or undefined.
   */
  edit(data: AccountData, id: number, fields: ServiceSideChange): StoredReport | undefined {
    const report = data.reports.get(id);
    if (!report) return undefined;
    Object.assign(report, fields);
    if (report.privacy !== 2) report.password_hash = null;
    report.updated_at = this.options.now().toISOString();
    // The result, url or date may be a sort key: every cached order is rebuilt.
    this.changed(data);
    return report;
  }

  /** Adds `count` generated reports after the newest (fresh, globally unique ids). */
  addGenerated(data: AccountData, count: number): void {
    this.fillWithGenerated(data, count);
    this.changed(data);
  }

  /** Replaces the account's reports with `count` generated ones (fresh, globally unique ids). */
  replaceWithGenerated(data: AccountData, count: number): void {
    data.reports.clear();
    this.fillWithGenerated(data, count);
    this.changed(data);
  }

  private fillWithGenerated(data: AccountData, count: number): void {
    this.seededPasswordHash ??= hashPassword(SEEDED_REPORT_PASSWORD);
    const seed = mixSeed(this.options.seed, data.index, count);
    const reports = generateReports({
      seed,
      count,
      urls: urlPool(mixSeed(seed, 1), Math.max(1, Math.ceil(count / SEEDED_REPORTS_PER_URL))),
      firstId: this.nextId,
      anchor: startOfUtcDay(this.options.now()),
      passwordHash: this.seededPasswordHash,
    });
    for (const report of reports) data.reports.set(report.id, report);
    this.nextId += count;
  }

  private filteredAscending(data: AccountData, params: ListParams): StoredReport[] {
    const search = params.search?.toLowerCase() ?? null;
    const memoKey = JSON.stringify([params.sortBy, params.result, params.project, search]);
    const memo = data.filtered.get(memoKey);
    if (memo) return memo;

    let sorted = data.sorted.get(params.sortBy);
    if (!sorted) {
      sorted = [...data.reports.values()].sort(COMPARE[params.sortBy]);
      data.sorted.set(params.sortBy, sorted);
    }
    if (search === null && params.result === null && params.project === null) return sorted;

    const filtered = sorted.filter(
      (r) =>
        (params.result === null || r.result === params.result) &&
        (params.project === null || r.project === params.project) &&
        (search === null || r.url.toLowerCase().includes(search)),
    );
    if (data.filtered.size >= FILTER_MEMO_SIZE)
      data.filtered.delete(data.filtered.keys().next().value as string);
    data.filtered.set(memoKey, filtered);
    return filtered;
  }

  private changed(data: AccountData): void {
    data.sorted.clear();
    data.filtered.clear();
    this.save();
  }

  private readDataFile(file: string): DataFile | null {
    if (!existsSync(file)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      parsed = undefined;
    }
    const checked = DataFileSchema.safeParse(parsed);
    if (!checked.success) {
      throw new AppFailure(appError('demo.data_damaged', { file }));
    }
    return checked.data;
  }

  private save(): void {
    const file = this.options.dataFile;
    if (!file) return;
    const accounts: Record<string, StoredReport[]> = { ...this.otherAccounts };
    for (const data of this.ordered) {
      accounts[data.fileKey] = [...data.reports.values()].sort(COMPARE.id);
    }
    const content: DataFile = { format: FILE_FORMAT, version: 1, next_id: this.nextId, accounts };
    mkdirSync(dirname(file), { recursive: true });
    // A crash mid-write leaves the previous file intact.
    writeFileAtomic(file, JSON.stringify(content));
  }
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}
