// Renders the OpenAPI document as a list of operations with parameters and examples.
(async () => {
  const root = document.getElementById('routes');
  const text = (tag, content, cls) => {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = content;
    return el;
  };
  try {
    const doc = await (await fetch('/api/openapi.json')).json();
    root.textContent = '';
    root.append(text('p', `${doc.info.title} ${doc.info.version}: ${doc.info.description}`));
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const section = document.createElement('section');
        const head = document.createElement('h3');
        head.append(text('span', method, 'method'), text('span', path, 'path'));
        section.append(head, text('div', `${op.summary} `, ''), text('div', (op.tags || []).join(', '), 'tag'));
        if (op.parameters && op.parameters.length) {
          const table = document.createElement('table');
          table.append(text('tr', ''));
          table.firstChild.append(text('th', 'parameter'), text('th', 'required'), text('th', 'schema'), text('th', 'description'));
          for (const p of op.parameters) {
            const row = document.createElement('tr');
            const { description, ...schema } = p.schema || {};
            row.append(
              text('td', p.name),
              text('td', p.required ? 'yes' : 'no'),
              text('td', JSON.stringify(schema)),
              text('td', description || p.description || ''),
            );
            table.append(row);
          }
          section.append(table);
        }
        const example = op.responses && op.responses['200'] && op.responses['200'].content['application/json'].example;
        if (example !== undefined) section.append(text('pre', JSON.stringify(example, null, 2)));
        if (op.responses && op.responses.default) section.append(text('div', op.responses.default.description, 'tag'));
        root.append(section);
      }
    }
  } catch (error) {
    root.textContent = `Could not load the API description: ${error}`;
  }
})();
