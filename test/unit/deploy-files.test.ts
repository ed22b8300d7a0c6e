import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parseAllDocuments, parse } from 'yaml';
import { configHash } from '../../ops/generate/generated-files.js';
import { ConfigError, configVariableNames, configWith } from '../../shared/config.js';

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
  'networking.k8s.io/v1/NetworkPolicy': (m) => new NetworkPolicy(m as never),
  // prometheus-operator's kinds have no schema here: their shape is checked by the monitoring test below
  'monitoring.coreos.com/v1/PodMonitor': () => ({ validate: () => undefined }),
  'monitoring.coreos.com/v1/PrometheusRule': () => ({ validate: () => undefined }),
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
interface SpreadConstraint {
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector: { matchLabels: Record<string, string> };
}
interface DeploymentShape {
  spec: {
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        automountServiceAccountToken?: boolean;
        securityContext: { runAsNonRoot: boolean; seccompProfile?: { type: string } };
        topologySpreadConstraints?: SpreadConstraint[];
        containers: Container[];
      };
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

  it('set only variables the service reads, and values it accepts once the example tokens are replaced', () => {
    const known = new Set(configVariableNames());
    const variables = { ...config.data, ...secret.stringData };
    for (const name of Object.keys(variables)) expect(known.has(name), name).to.equal(true);
    const real = {
      OPS_TOKEN: 'a'.repeat(48),
      METRICS_TOKEN: 'b'.repeat(48),
      WEBHOOK_SECRETS_KEY: 'c'.repeat(64),
    };
    const read = configWith({ ...variables, ...real, NODE_ENV: 'production' });
    expect(read.metricsPort).to.equal(9464);
    expect(read.opsToken).to.equal(real.OPS_TOKEN);
    expect(read.metricsToken).to.equal(real.METRICS_TOKEN);
    // the site's origin and its mail transport (which holds a password) come from the Secret, not the ConfigMap
    expect(read.site.url).to.equal(secret.stringData.SITE_URL);
    expect(read.site.smtpUrl).to.equal(secret.stringData.SMTP_URL);
    expect(Object.keys(config.data)).to.not.include.members(['SITE_URL', 'SMTP_URL']);
  });

  it('ship example tokens and keys that the service refuses, so a copy applied as it is does not start', () => {
    const variables = { ...config.data, ...secret.stringData, NODE_ENV: 'production' };
    const valid = { OPS_TOKEN: 'a'.repeat(48), METRICS_TOKEN: 'b'.repeat(48), WEBHOOK_SECRETS_KEY: 'c'.repeat(64) };
    for (const name of Object.keys(valid)) {
      // every other one replaced: this one's example alone stops the start, by name
      const others = Object.fromEntries(Object.entries(valid).filter(([other]) => other !== name));
      expect(() => configWith({ ...variables, ...others }), name).to.throw(ConfigError, new RegExp(`^${name}: `));
    }
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
      // hardening: the default seccomp profile, no service-account token (the service never calls the Kubernetes API)
      expect(pod.securityContext.seccompProfile?.type).to.equal('RuntimeDefault');
      expect(pod.automountServiceAccountToken).to.equal(false);
      // a ConfigMap change rolls the pods: the template carries its hash (npm run generate writes it)
      const configYaml = readFileSync(join(K8S, 'config.yaml'), 'utf8');
      expect(deployment!.spec.template.metadata.annotations?.['perpdesk.io/config-hash']).to.equal(configHash(configYaml));
      const budget = ofKind<{ spec: { selector: { matchLabels: Record<string, string> } } }>('PodDisruptionBudget').find(
        (b) => b.metadata.name === `perpdesk-${role}`,
      );
      expect(budget?.spec.selector.matchLabels).to.deep.equal(deployment!.spec.template.metadata.labels);
    });
  }

  for (const [role, when] of [
    ['api', 'ScheduleAnyway'],
    ['feed', 'DoNotSchedule'],
  ] as const) {
    it(`spread the ${role} pods across nodes`, () => {
      const deployment = ofKind<DeploymentShape>('Deployment').find((d) => d.metadata.name === `perpdesk-${role}`)!;
      const spread = deployment.spec.template.spec.topologySpreadConstraints?.find((c) => c.topologyKey === 'kubernetes.io/hostname');
      expect(spread?.whenUnsatisfiable).to.equal(when);
      expect(spread?.labelSelector.matchLabels).to.deep.equal(deployment.spec.template.metadata.labels);
    });
  }

  it('let only the monitoring namespace reach the metrics port, and anyone the API port', () => {
    interface Peer {
      namespaceSelector?: { matchLabels: Record<string, string> };
    }
    interface Policy {
      spec: { podSelector: { matchLabels: Record<string, string> }; ingress: { from?: Peer[]; ports: { port: string }[] }[] };
    }
    const policies = ofKind<Policy>('NetworkPolicy');
    expect(policies.length).to.be.at.least(2);
    for (const policy of policies) {
      for (const rule of policy.spec.ingress) {
        const ports = rule.ports.map((p) => p.port);
        if (ports.includes('metrics'))
          expect(rule.from?.[0]?.namespaceSelector?.matchLabels).to.have.property('kubernetes.io/metadata.name');
        else expect(ports).to.deep.equal(['http']);
      }
    }
  });

  it('scrape every role with the scrape token from the Secret, not the dashboard token', () => {
    interface Endpoint {
      port: string;
      authorization: { credentials: { name: string; key: string } };
    }
    const [monitor] = ofKind<{ spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: Endpoint[] } }>(
      'PodMonitor',
    );
    expect(monitor, 'a PodMonitor').to.not.equal(undefined);
    const [endpoint] = monitor!.spec.podMetricsEndpoints;
    expect(endpoint!.authorization.credentials).to.deep.equal({ name: secret.metadata.name, key: 'METRICS_TOKEN' });
    expect(secret.stringData).to.have.property('METRICS_TOKEN');
    for (const deployment of ofKind<DeploymentShape>('Deployment')) {
      const labels = deployment.spec.template.metadata.labels;
      for (const [key, value] of Object.entries(monitor!.spec.selector.matchLabels)) expect(labels[key]).to.equal(value);
      const port = deployment.spec.template.spec.containers[0]!.ports?.find((p) => p.name === endpoint!.port);
      expect(port?.containerPort, deployment.metadata.name).to.equal(Number(config.data.METRICS_PORT));
    }
  });

  it('build an image in two stages from a digest-pinned Node LTS, with npm ci, as a non-root user, from paths that exist', () => {
    const dockerfile = readFileSync(join(ROOT, 'ops/deploy/Dockerfile'), 'utf8');
    const lines = dockerfile.split('\n').filter((line) => !line.startsWith('#'));
    expect(lines.filter((line) => line.startsWith('FROM ')).length).to.be.at.least(2);
    const stages = lines.flatMap((line, at) => (line.startsWith('FROM ') ? [at] : []));
    const runtime = lines.slice(stages.at(-1));
    expect(runtime.find((line) => line.startsWith('USER '))).to.match(/^USER (?!root\b|0\b)\S+/);
    expect(runtime.find((line) => line.startsWith('HEALTHCHECK '))).to.include('ops/deploy/healthcheck.mjs');
    // every base image is pinned by digest, on an even (LTS) Node major
    for (const from of lines.filter((line) => line.startsWith('FROM '))) {
      expect(from).to.match(/^FROM node:(\d+)[\w.-]*@sha256:[0-9a-f]{64}\b/);
      expect(Number(/^FROM node:(\d+)/.exec(from)?.[1]) % 2, from).to.equal(0);
    }
    const install = lines.find((line) => line.startsWith('RUN npm '));
    expect(install).to.match(/^RUN npm ci --omit=dev\b/);
    // nothing of the tests, the bench or the dev tools is copied into the image; of docs/, the guide /docs serves
    const copied = runtime.filter((line) => line.startsWith('COPY ') && !line.includes('--from='));
    for (const line of copied) expect(line).to.not.match(/\b(test|bench|clients)\b|\bdocs\b(?!\/guide\b)/);
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
