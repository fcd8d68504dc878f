/**
 * Which metric names a PromQL expression (or a Grafana variable query) reads, and which metric
 * names a Prometheus /metrics page exposes. Used by test/e2e/observability-metrics.test.ts to prove
 * that dashboards and alert rules query only metrics some service serves (docs/metrics.md).
 *
 * The extractor tokenizes instead of pattern-matching the text, so it is not fooled by label
 * names inside braces, label lists after by/without/on/ignoring/group_left/group_right, string
 * literals, numbers, durations, functions, aggregation operators, keywords or Grafana variables.
 */

/** PromQL functions (Prometheus 2.x and 3.x); an identifier followed by `(` is a function anyway. */
const functions = new Set([
  'abs', 'absent', 'absent_over_time', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'avg_over_time', 'ceil', 'changes',
  'clamp', 'clamp_max', 'clamp_min', 'cos', 'cosh', 'count_over_time', 'day_of_month', 'day_of_week', 'day_of_year',
  'days_in_month', 'deg', 'delta', 'deriv', 'double_exponential_smoothing', 'exp', 'floor', 'histogram_avg', 'histogram_count',
  'histogram_fraction', 'histogram_quantile', 'histogram_stddev', 'histogram_stdvar', 'histogram_sum', 'holt_winters', 'hour',
  'idelta', 'increase', 'info', 'irate', 'label_join', 'label_replace', 'last_over_time', 'ln', 'log10', 'log2',
  'mad_over_time', 'max_over_time', 'min_over_time', 'minute', 'month', 'pi', 'predict_linear', 'present_over_time',
  'quantile_over_time', 'rad', 'rate', 'resets', 'round', 'scalar', 'sgn', 'sin', 'sinh', 'sort', 'sort_by_label',
  'sort_by_label_desc', 'sort_desc', 'sqrt', 'stddev_over_time', 'stdvar_over_time', 'sum_over_time', 'tan', 'tanh',
  'time', 'timestamp', 'vector', 'year',
]);
const aggregations = new Set([
  'sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio',
]);
/** Keywords followed by a parenthesised list of label names (group_left/group_right may have none). */
const labelListKeywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const otherKeywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'start', 'end', 'inf', 'nan']);

type Token = { kind: 'ident' | 'string' | 'number' | 'punct'; text: string };

/** Grafana's template variables ($__rate_interval, $service, ${service:regex}, [[service]]) as a neutral token. */
function withoutGrafanaVariables(expression: string): string {
  return expression
    .replace(/\$\{[^}]*\}/g, '__grafana_variable__')
    .replace(/\[\[[^\]]*\]\]/g, '__grafana_variable__')
    .replace(/\$[A-Za-z_][A-Za-z0-9_]*/g, '__grafana_variable__');
}

function tokenize(expression: string): Token[] {
  const source = withoutGrafanaVariables(expression);
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === '#') {
      while (index < source.length && source[index] !== '\n') index += 1; // comment
    } else if (char === '"' || char === "'" || char === '`') {
      let end = index + 1;
      while (end < source.length && source[end] !== char) end += char !== '`' && source[end] === '\\' ? 2 : 1;
      if (end >= source.length) throw new Error(`unterminated string in: ${expression}`);
      tokens.push({ kind: 'string', text: source.slice(index, end + 1) });
      index = end + 1;
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(source[index + 1] ?? ''))) {
      // numbers, hex, exponents and durations (5m, 1h30m, 250ms)
      const match = /^(0[xX][0-9a-fA-F]+|(\d+(ms|[smhdwy]))+|\d*\.?\d+([eE][-+]?\d+)?)/.exec(source.slice(index));
      const text = match?.[0] ?? char;
      tokens.push({ kind: 'number', text });
      index += text.length;
    } else if (/[A-Za-z_:]/.test(char)) {
      const text = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(source.slice(index))![0];
      tokens.push({ kind: 'ident', text });
      index += text.length;
    } else {
      tokens.push({ kind: 'punct', text: char });
      index += 1;
    }
  }
  return tokens;
}

/** Index just past the bracket that closes the one at `start` (`{…}`, `[…]` or `(…)`). */
function skipBalanced(tokens: Token[], start: number): number {
  const open = tokens[start]!.text;
  const close = open === '{' ? '}' : open === '[' ? ']' : ')';
  let depth = 0;
  for (let index = start; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.kind !== 'punct') continue;
    if (token.text === open) depth += 1;
    if (token.text === close) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  throw new Error(`unbalanced ${open}`);
}

/** The metric names a PromQL expression selects, sorted and without duplicates. */
export function metricNamesOf(expression: string): string[] {
  const tokens = tokenize(expression);
  const names = new Set<string>();
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (token.kind === 'punct' && token.text === '{') {
      index = skipBalanced(tokens, index); // label matchers of a selector: never metric names
      continue;
    }
    if (token.kind === 'punct' && token.text === '[') {
      index = skipBalanced(tokens, index); // range or subquery durations
      continue;
    }
    if (token.kind !== 'ident') {
      index += 1;
      continue;
    }
    const word = token.text;
    const lower = word.toLowerCase();
    if (labelListKeywords.has(lower)) {
      index = next?.kind === 'punct' && next.text === '(' ? skipBalanced(tokens, index + 1) : index + 1;
      continue;
    }
    const isCall = next?.kind === 'punct' && next.text === '(';
    if (isCall || functions.has(word) || aggregations.has(lower) || otherKeywords.has(lower) || word === '__grafana_variable__') {
      index += 1;
      continue;
    }
    names.add(word);
    index += 1;
  }
  return [...names].sort();
}

/**
 * The metric names a Grafana variable query of the Prometheus datasource reads:
 * label_values(<selector>, <label>), label_values(<label>), query_result(<expr>), metrics(<regex>),
 * label_names().
 */
export function metricNamesOfVariableQuery(query: string): string[] {
  const text = query.trim();
  const labelValues = /^label_values\(\s*([\s\S]*?)\s*,\s*[A-Za-z_][A-Za-z0-9_]*\s*\)$/.exec(text);
  if (labelValues) return metricNamesOf(labelValues[1]!);
  if (/^label_values\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\)$/.test(text) || /^(metrics|label_names)\(/.test(text)) return [];
  const queryResult = /^query_result\(([\s\S]*)\)$/.exec(text);
  if (queryResult) return metricNamesOf(queryResult[1]!);
  return metricNamesOf(text);
}

/**
 * The names of the series a Prometheus text page lets one query: for every `# TYPE` line the
 * names its samples carry (histogram: _bucket, _sum, _count; summary: the name, _sum, _count;
 * a counter named without _total also as name_total), plus the name of every sample line.
 */
export function exposedMetricNames(page: string): Set<string> {
  const names = new Set<string>();
  for (const line of page.split('\n')) {
    const type = /^#\s*TYPE\s+([A-Za-z_:][A-Za-z0-9_:]*)\s+(\w+)/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
      else if (kind === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(`${name}${suffix}`);
      else if (kind === 'counter' && !name.endsWith('_total')) names.add(name).add(`${name}_total`);
      else names.add(name);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}
