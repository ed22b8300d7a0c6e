import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { ensurePromtool } from '../helpers/promtool.js';

const ROOT = join(import.meta.dirname, '../..');
const MONITORING = join(ROOT, 'ops/deploy/k8s/monitoring.yaml');
const RULE_TESTS = join(ROOT, 'ops/deploy/prometheus/rules.test.yaml');

interface RuleManifest {
  kind: string;
  spec: { groups: { name: string; rules: { alert?: string; expr: string }[] }[] };
}

describe('alert rules (the PrometheusRule of ops/deploy/k8s/monitoring.yaml)', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    ensurePromtool();
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-rules-'));
    const rule = parseAllDocuments(readFileSync(MONITORING, 'utf8'))
      .map((doc) => doc.toJS() as RuleManifest)
      .find((doc) => doc.kind === 'PrometheusRule');
    // the rule file promtool reads is the PrometheusRule's spec, as prometheus-operator hands it to Prometheus
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rule?.spec.groups ?? [] }));
    copyFileSync(RULE_TESTS, join(dir, 'rules.test.yaml'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const promtool = (...args: string[]): { status: number | null; output: string } => {
    const run = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  it('are valid rules for Prometheus', () => {
    const check = promtool('check', 'rules', 'rules.yaml');
    expect(check.status, check.output).to.equal(0);
  });

  it('pass their unit tests (promtool test rules): each alert fires on its trouble and not on a healthy service', () => {
    const run = promtool('test', 'rules', 'rules.test.yaml');
    expect(run.status, run.output).to.equal(0);
  });

  it('has a test for every alert it ships', () => {
    const alerts = parse(readFileSync(join(dir, 'rules.yaml'), 'utf8'));
    const tested = readFileSync(RULE_TESTS, 'utf8');
    for (const alert of alerts) expect(tested, alert).to.include(`alertname: ${alert}`);
    for (const wanted of [
      'PerpdeskHigh5xxRate',
      'PerpdeskLatencyP99',
      'PerpdeskJobsFailing',
      'PerpdeskOutboxLag',
      'PerpdeskFeedLeaseUnheld',
      'PerpdeskLiquidationStreamSilent',
      'PerpdeskRedisMemoryHigh',
      'PerpdeskRestarting',
    ])
      expect(alerts).to.include(wanted);
  });
});

function parse(text: string): string[] {
  const file = parseAllDocuments(text)[0]?.toJS() as { groups: RuleManifest['spec']['groups'] };
  return file.groups.flatMap((group) => group.rules.flatMap((rule) => (rule.alert ? [rule.alert] : [])));
}
