/** The change history as the JSON answer, CHANGELOG.md and an RSS 2.0 feed. Pure. */
import { SERVICE_NAME } from '../core/service.js';
import type { ChangelogEntry } from './changelog.js';

export interface ChangelogView {
  current_version: string;
  entries: ChangelogEntry[];
  /** The original's older name of the same list. */
  changelog: ChangelogEntry[];
}

export function changelogView(entries: readonly ChangelogEntry[], currentVersion: string): ChangelogView {
  return { current_version: currentVersion, entries: [...entries], changelog: [...entries] };
}

export function changelogMarkdown(entries: readonly ChangelogEntry[], currentVersion: string): string {
  const sections = entries.map(
    (entry) => `## ${entry.version} (${entry.date}): ${entry.title}\n\n${entry.changes.map((change) => `- ${change}`).join('\n')}\n`,
  );
  return [
    '# Changelog\n',
    `Current API version: ${currentVersion}. Newest first. Generated from \`shared/meta/changelog.ts\` by \`npm run generate\`;`,
    'edit that file, not this one. Also served as `/api/changelog.json` and `/api/changelog.xml` (RSS 2.0).\n',
    ...sections,
  ].join('\n');
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** RFC 822 date of a UTC day (RSS 2.0's pubDate), e.g. "Wed, 16 Sep 2026 00:00:00 GMT". */
const rfc822 = (day: string): string => new Date(`${day}T00:00:00Z`).toUTCString();

/** The feed; `origin` (scheme and host, no trailing slash) makes the links absolute, as RSS requires. */
export function changelogRss(entries: readonly ChangelogEntry[], origin: string): string {
  const element = (name: string, text: string): string => `<${name}>${escapeXml(text)}</${name}>`;
  const items = entries.map((entry) =>
    [
      '<item>',
      element('title', `${entry.version}: ${entry.title}`),
      element('link', `${origin}/api/changelog.json`),
      element('description', entry.changes.join('; ')),
      element('pubDate', rfc822(entry.date)),
      `<guid isPermaLink="false">${escapeXml(`${SERVICE_NAME}-changelog-${entry.version}`)}</guid>`,
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0"><channel>',
    element('title', `${SERVICE_NAME} API changelog`),
    element('link', `${origin}/docs`),
    element('description', `Changes to the ${SERVICE_NAME} API, newest first`),
    element('language', 'en'),
    ...(entries.length > 0 ? [element('lastBuildDate', rfc822(entries[0].date))] : []),
    ...items,
    '</channel></rss>',
    '',
  ].join('\n');
}
