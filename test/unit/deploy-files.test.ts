import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parseAllDocuments, parse } from 'yaml';
import { configVariableNames, configWith } from '../../shared/core/config.js';

const ROOT = join(import.meta.dirname, '../..');
const K8S = join(ROOT, 'ops/deploy/k8s');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Each kind the manifests may hold, validated against the Kubernetes API's own schema (kubernetes-models, offline). */
const VALIDATORS: Record<string, (m: Manifest) => { validate(): void }> = {
  'v1/ConfigMap': (m) => new ConfigMap(m as never),
  'v1/Secret': (m) => new Secret(m as never),
  'v1/Service': (m) => new Service(m as never),
  'apps/v1/Deployment': (m) => new Deployment(m as never),
  'policy/v1/PodDisruptionBudget': (m) => new PodDisruptionBudget(m as never),
};

const manifestFiles = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
const manifests: Manifest[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((doc) => doc.toJS() as Manifest),
);
const ofKind = <T>(kind: string): (Manifest & T)[] => manifests.filter((m) => m.kind === kind) as (Manifest & T)[];

interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  env: { name: string; value: string }[];
  envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  resources: { requests: { cpu?: string; memory?: string } };
  readinessProbe: Probe;
  livenessProbe: Probe;
  lifecycle?: { preStop?: { exec: { command: string[] } } };
}
interface DeploymentShape {
  spec: {
    template: {
      metadata: { labels: Record<string, string> };
      spec: { terminationGracePeriodSeconds: number; securityContext: { runAsNonRoot: boolean }; containers: Container[] };
    };
  };
}

describe('deployment files (ops/deploy)', () => {
  const config = ofKind<{ data: Record<string, string> }>('ConfigMap')[0];
  const secret = ofKind<{ stringData: Record<string, string> }>('Secret')[0];

  it('are valid Kubernetes objects of known kinds, all listed by the kustomization', () => {
    expect(manifests.length).to.be.greaterThan(0);
    for (const manifest of manifests) {
      const validator = VALIDATORS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(validator, `${manifest.kind} ${manifest.metadata.name}`).to.not.equal(undefined);
      expect(() => validator(manifest).validate(), `${manifest.kind} ${manifest.metadata.name}`).to.not.throw();
    }
    const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    // the Secret is an example: the real one is created out of band and never committed
    expect([...kustomization.resources].sort()).to.deep.equal(manifestFiles.filter((f) => f !== 'secret.example.yaml').sort());
  });

  it('set only variables the service reads, and values it accepts', () => {
    const known = new Set(configVariableNames());
    const variables = { ...config.data, ...secret.stringData };
    for (const name of Object.keys(variables)) expect(known.has(name), name).to.equal(true);
    const read = configWith(variables);
    expect(read.metricsPort).to.equal(9464);
    expect(read.opsToken).to.equal(secret.stringData.OPS_TOKEN);
  });

  for (const role of ['api', 'worker', 'feed']) {
    it(`run the ${role} role with probes, requests, a disruption budget and a grace longer than the drain`, () => {
      const deployment = ofKind<DeploymentShape>('Deployment').find((d) => d.metadata.name === `perpdesk-${role}`);
      expect(deployment, `perpdesk-${role}`).to.not.equal(undefined);
      const pod = deployment!.spec.template.spec;
      const [container] = pod.containers;
      expect(container.env).to.deep.include({ name: 'ROLE', value: role });
      expect(container.envFrom).to.deep.equal([
        { configMapRef: { name: config.metadata.name } },
        { secretRef: { name: secret.metadata.name } },
      ]);
      expect(pod.securityContext.runAsNonRoot).to.equal(true);
      expect(container.resources.requests.cpu).to.be.a('string');
      expect(container.resources.requests.memory).to.be.a('string');
      // the probes reach the process's own listener: the API on PORT, worker and feed on METRICS_PORT
      const listening = Number(role === 'api' ? config.data.PORT : config.data.METRICS_PORT);
      for (const [probe, path] of [
        [container.readinessProbe, '/readyz'],
        [container.livenessProbe, '/healthz'],
      ] as const) {
        expect(probe.httpGet.path).to.equal(path);
        expect(container.ports?.find((p) => p.name === probe.httpGet.port)?.containerPort).to.equal(listening);
      }
      const preStopSeconds = Number(container.lifecycle?.preStop?.exec.command.at(-1) ?? 0);
      expect(pod.terminationGracePeriodSeconds * 1000).to.be.greaterThan(Number(config.data.SHUTDOWN_GRACE_MS) + preStopSeconds * 1000);
      const budget = ofKind<{ spec: { selector: { matchLabels: Record<string, string> } } }>('PodDisruptionBudget').find(
        (b) => b.metadata.name === `perpdesk-${role}`,
      );
      expect(budget?.spec.selector.matchLabels).to.deep.equal(deployment!.spec.template.metadata.labels);
    });
  }

  it('build an image in two stages that runs as a non-root user, without npm ci, from paths that exist', () => {
    const dockerfile = readFileSync(join(ROOT, 'ops/deploy/Dockerfile'), 'utf8');
    const lines = dockerfile.split('\n').filter((line) => !line.startsWith('#'));
    expect(lines.filter((line) => line.startsWith('FROM ')).length).to.be.at.least(2);
    const stages = lines.flatMap((line, at) => (line.startsWith('FROM ') ? [at] : []));
    const runtime = lines.slice(stages.at(-1));
    expect(runtime.find((line) => line.startsWith('USER '))).to.match(/^USER (?!root\b|0\b)\S+/);
    expect(runtime.find((line) => line.startsWith('HEALTHCHECK '))).to.include('ops/deploy/healthcheck.mjs');
    expect(lines.some((line) => /\bnpm ci\b/.test(line))).to.equal(false);
    for (const line of lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
      const sources = line
        .split(/\s+/)
        .slice(1, -1)
        .filter((part) => !part.startsWith('--'));
      for (const source of sources) expect(existsSync(join(ROOT, source)), source).to.equal(true);
    }
    const entry = /CMD \[.*"([^"]+\.ts)"\]/.exec(runtime.join('\n'))?.[1];
    expect(entry && existsSync(join(ROOT, entry)), 'the CMD entry point').to.equal(true);
  });
});
