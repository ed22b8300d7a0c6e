// /docs: Swagger UI (swagger-ui-dist, served from /docs/assets) over /api/openapi.json, and a sidebar of the tag groups
// with a search over every operation. A file of its own because helmet's Content-Security-Policy refuses inline scripts.
/* global SwaggerUIBundle, CSS */
(async () => {
  const root = document.getElementById('swagger-ui');
  let spec;
  try {
    const response = await fetch('/api/openapi.json');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    spec = await response.json();
  } catch (error) {
    root.textContent = `Could not load the API description: ${error}`;
    return;
  }
  root.textContent = '';
  const ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'none',
    // Swagger UI's own box filters the tag groups; the sidebar's searches paths and summaries too
    filter: true,
    // the X-API-Key given under Authorize lives in this page only: Swagger UI's persistence would keep it in
    // localStorage, where any script of this origin (and anyone at this browser later) could read it
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    // no call to the online validator: the page works offline
    validatorUrl: null,
  });
  buildSidebar(spec, ui);
})();

/** Swagger UI's id of a tag or an operation (its escapeDeepLinkPath). */
const deepLinkId = (text) => CSS.escape(text.trim().replace(/\s/g, '_'));

/** Every operation of the document, grouped by its first tag, in the document's order. */
function tagGroups(spec) {
  const groups = new Map();
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags && op.tags[0]) || 'default';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag).push({ tag, method, path, summary: op.summary || '', operationId: op.operationId });
    }
  }
  return groups;
}

/** Opens a tag group (and one of its operations) in Swagger UI and scrolls to it, as a deep link would. */
function reveal(ui, tag, operationId) {
  const key = operationId ? ['operations', tag, operationId] : ['operations-tag', tag];
  ui.layoutActions.show(['operations-tag', tag], true);
  if (operationId) ui.layoutActions.show(key, true);
  ui.layoutActions.scrollTo(key);
  ui.layoutActions.scrollToVirtualizedOperation(key);
  const id = operationId ? `operations-${deepLinkId(tag)}-${deepLinkId(operationId)}` : `operations-tag-${deepLinkId(tag)}`;
  // after React has rendered what show() opened
  requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: 'start' })));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function buildSidebar(spec, ui) {
  const container = document.getElementById('docs-groups');
  const search = document.getElementById('docs-search');
  const rows = [];
  for (const [tag, operations] of tagGroups(spec)) {
    const group = element('section', 'docs-group');
    group.dataset.tag = tag;
    const heading = element('button', '', `${tag} (${operations.length})`);
    heading.type = 'button';
    heading.addEventListener('click', () => reveal(ui, tag));
    const list = element('ul');
    for (const op of operations) {
      const item = element('li');
      const link = element('button');
      link.type = 'button';
      link.title = op.summary;
      link.append(element('span', `docs-method ${op.method}`, op.method), element('span', 'docs-path', op.path));
      link.addEventListener('click', () => reveal(ui, tag, op.operationId));
      item.append(link);
      list.append(item);
      rows.push({ item, group, text: `${op.method} ${op.path} ${op.summary} ${tag}`.toLowerCase() });
    }
    group.append(heading, list);
    container.append(group);
  }
  search.addEventListener('input', () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const visible = new Set();
    for (const row of rows) {
      const match = words.every((word) => row.text.includes(word));
      row.item.hidden = !match;
      if (match) visible.add(row.group);
    }
    for (const group of container.children) group.hidden = !visible.has(group);
  });
}
