// tcatrace serve's page. Every text from a trace is put in the page as text (textContent,
// text nodes), never as HTML: a payload that holds markup shows as the characters it is.
'use strict';

const token = new URLSearchParams(location.search).get('token') || '';
const pageSize = 200;

const view = {
  files: [],
  file: null,       // index of the file shown
  session: null,    // id of the session shown
  lastSeq: 0,       // the session's last action, as last read
  firstSeq: 1,      // the session's first action kept (later than 1 when its start was trimmed)
  next: 1,          // the seq the log's next page starts from; null at the end
  rows: [],         // the seqs in the log, in order
  selected: null,   // the selected seq
  loading: false,
  generation: 0,    // bumped when the log is reset: late answers for an older log are dropped
  compareNext: null, // the comparison's next entry to load; null at its end
  events: [],       // what a debugger did to the app, as last read
  shownEvents: new Set(), // the ids of those in the log
  locked: new Set(), // the files whose live app the page locked
};

// A query string with %20 for spaces: the server reads `+` as itself.
function queryString(params) {
  return Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

async function api(path) {
  const response = await fetch('/api/' + path, { headers: { 'X-TCATrace-Token': token } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// A live app's command: `POST /api/files/F/live/COMMAND`; the answer's text, or an error with
// the reason the app or the server gave.
async function post(path, body) {
  const response = await fetch('/api/' + path, {
    method: 'POST', headers: { 'X-TCATrace-Token': token }, body,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer.done;
}

// Appends each child to `node`: a node as it is, anything else as text.
function appendChildren(node, children) {
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function element(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return appendChildren(node, children);
}

function status(text) {
  document.getElementById('status').textContent = text;
}

// Which session is shown, to drop an answer that arrives after another was opened.
function currentSession() {
  return `${view.file}/${view.session}`;
}

function sessionPath(rest) {
  return `files/${view.file}/sessions/${view.session}/${rest}`;
}

function filters() {
  const params = {};
  const categories = [...document.querySelectorAll('input[name=category]:checked')].map(c => c.value);
  if (categories.length === 0) return null;
  if (categories.length < 4) params.category = categories.join(',');
  const feature = document.getElementById('feature').value.trim();
  if (feature) params.feature = feature;
  const text = document.getElementById('text').value;
  if (text) params.text = text;
  const changed = document.getElementById('changed').value.trim();
  if (changed) params.changed = changed;
  if (document.getElementById('leaks-only').checked) params.leaks = 'true';
  return params;
}

// MARK: - Sessions

// A live file's state: its app connected, or when it left.
function liveLabel(file) {
  if (!file.live) return '';
  if (file.live.connected) return ' · live';
  return ` · left ${file.live.left_at ? new Date(file.live.left_at).toLocaleTimeString() : ''}`;
}

// Lists the files' sessions in the choosers; the session shown stays chosen.
function listSessions() {
  const select = document.getElementById('session');
  const shown = view.session === null ? null : currentSession();
  select.replaceChildren();
  const errors = [];
  for (const file of view.files) {
    if (file.error) {
      errors.push(`${file.name}: ${file.error}`);
      continue;
    }
    for (const session of file.sessions) {
      const option = element('option', null,
        `${file.name} · #${session.id} ${session.root_feature} (${session.actions} actions, ${session.leaks} leaks)${liveLabel(file)}`);
      option.value = `${file.index}/${session.id}`;
      select.append(option);
    }
  }
  const compare = document.getElementById('compare-with');
  const compared = compare.value;
  compare.replaceChildren(...[...select.options].map(option => option.cloneNode(true)));
  if (compared) compare.value = compared;
  if (shown !== null) select.value = shown;
  document.getElementById('file-errors').textContent = errors.join('\n');
  showDriving();
}

async function loadFiles() {
  view.files = await api('files');
  listSessions();
  const select = document.getElementById('session');
  if (select.options.length > 0) {
    const [file, session] = select.options[0].value.split('/').map(Number);
    await openSession(file, session);
  } else {
    status('No session to show.');
  }
}

// With apps connected (`tcatrace serve --live`), the files grow: asked for again every 2
// seconds, the new sessions join the chooser, and the first opens when none was shown.
async function refreshFiles() {
  const files = await api('files');
  if (JSON.stringify(files) === JSON.stringify(view.files)) return;
  view.files = files;
  listSessions();
  const select = document.getElementById('session');
  if (view.session === null && select.options.length > 0) {
    status('');
    const [file, session] = select.options[0].value.split('/').map(Number);
    await openSession(file, session);
  }
}

async function openSession(file, session) {
  view.file = file;
  view.session = session;
  const info = view.files[file].sessions.find(s => s.id === session);
  view.firstSeq = info ? info.first_seq : 1;
  view.lastSeq = info ? info.first_seq - 1 + info.actions : 0;
  document.getElementById('session').value = `${file}/${session}`;
  showDriving();
  const download = kind => `/api/${sessionPath(kind)}?${queryString({ token })}`;
  document.getElementById('download-perfetto').href = download('perfetto');
  document.getElementById('download-test').href = download('test');
  const other = [...document.getElementById('compare-with').options]
    .find(option => option.value !== `${file}/${session}`);
  if (other) document.getElementById('compare-with').value = other.value;
  clearComparison();
  if (document.getElementById('features-panel').open) loadFeatures().catch(error => status(error.message));
  await Promise.all([resetLog(), loadLeaks()]);
  if (view.rows.length > 0) await select(view.rows[0]);
}

// MARK: - Leaks and SQL

async function loadLeaks() {
  const shown = currentSession();
  const summaries = await api(sessionPath('leaks'));
  if (currentSession() !== shown) return;
  document.getElementById('leak-count').textContent =
    `(${summaries.reduce((total, leak) => total + leak.count, 0)})`;
  document.getElementById('leak-summaries').replaceChildren(...summaries.map(leak =>
    element('tr', null,
      element('td', null, leak.rule),
      element('td', null, leak.feature || '(root)'),
      element('td', null, leak.count),
      element('td', null, actionLink(leak.first_seq, `#${leak.first_seq}`)))));
}

async function runSQL(event) {
  event.preventDefault();
  const error = document.getElementById('sql-error');
  const table = document.getElementById('sql-result');
  error.textContent = '';
  table.replaceChildren();
  try {
    const query = queryString({ query: document.getElementById('sql-query').value });
    const result = await api(`files/${view.file}/sql?${query}`);
    table.append(element('thead', null, element('tr', null, ...result.columns.map(c => element('th', null, c)))));
    table.append(element('tbody', null, ...result.rows.map(row =>
      element('tr', null, ...row.map(value => element('td', null, value === null ? 'NULL' : value))))));
    if (result.truncated) error.textContent = `The first ${result.rows.length} rows.`;
  } catch (failure) {
    error.textContent = failure.message;
  }
}

// MARK: - The log

async function resetLog() {
  view.generation += 1;
  view.rows = [];
  view.next = 1;
  view.shownEvents = new Set();
  document.getElementById('actions').replaceChildren();
  updateSlider();
  await loadPage();
}

async function loadPage() {
  if (view.session === null || view.loading || view.next === null) return;
  view.loading = true;
  const generation = view.generation;
  try {
    const params = filters();
    if (params === null) {
      view.next = null;
      document.getElementById('more').textContent = 'No category chosen.';
      return;
    }
    params.from = view.next;
    params.limit = pageSize;
    const [page, events] = await Promise.all([
      api(sessionPath('actions?' + queryString(params))), api(sessionPath('debugger')),
    ]);
    if (generation !== view.generation) return;
    status('');
    view.events = events;
    appendRows(page.actions);
    view.next = page.next;
    if (view.next === null) appendEvents(Infinity);
    document.getElementById('more').textContent = view.next !== null ? 'Loading more as you scroll…'
      : params.changed ? `${view.rows.length} actions changed ${params.changed}`
      : `${view.rows.length} actions`;
  } catch (error) {
    if (generation === view.generation) status(error.message);
  } finally {
    view.loading = false;
    // The log was reset while this page was on its way: its answer was dropped, and the reset's
    // own load found this one running and did nothing, so load the new log's first page now.
    if (generation !== view.generation) loadPage();
  }
}

// Appends to the log, as rows of their own, what a debugger did before action `seq` and after
// the last action in the log.
function appendEvents(seq) {
  const body = document.getElementById('actions');
  const last = view.rows.length > 0 ? view.rows[view.rows.length - 1] : seq - 1;
  for (const event of view.events) {
    if (view.shownEvents.has(event.id) || event.after_seq >= seq || event.after_seq < last) continue;
    view.shownEvents.add(event.id);
    const cell = element('td', null, `⎇ ${event.summary}`);
    cell.colSpan = 6;
    const row = element('tr', 'debugger-event', element('td', null), cell);
    row.dataset.event = event.kind;
    body.append(row);
  }
}

function appendRows(actions) {
  const body = document.getElementById('actions');
  for (const action of actions) {
    appendEvents(action.seq);
    const row = element('tr', null,
      element('td', null, action.seq),
      element('td', null, formatTime(action.time_ns)),
      element('td', `category ${action.category}`, action.category),
      element('td', null, action.feature || '(root)'),
      element('td', null, action.case + (action.payload ? ` ${action.payload}` : '')),
      element('td', null, action.origin === 'effect' ? `by #${action.cause_seq}`
        : action.origin === 'debugger' ? 'debugger' : 'sent'),
      element('td', null));
    row.dataset.seq = action.seq;
    // A filtered log keeps the selected action marked, when it is among the filter's.
    if (action.seq === view.selected) row.classList.add('selected');
    if (action.leaks.length > 0) {
      const marker = element('span', 'leak-marker', '⚠');
      marker.title = action.leaks.map(l => l.rule).join(', ');
      row.lastChild.append(marker);
      row.classList.add('leak');
    }
    row.addEventListener('click', () => select(action.seq));
    body.append(row);
    view.rows.push(action.seq);
    if (action.seq > view.lastSeq) view.lastSeq = action.seq;
  }
  updateSlider();
}

function formatTime(ns) {
  return (ns / 1e9).toFixed(3) + ' s';
}

function updateSlider() {
  const slider = document.getElementById('slider');
  slider.max = view.lastSeq;
  slider.min = view.lastSeq > 0 ? view.firstSeq : 0;
}

// MARK: - The selected action

async function select(seq) {
  const shown = currentSession();
  view.selected = seq;
  for (const row of document.querySelectorAll('#actions tr.selected')) row.classList.remove('selected');
  const row = document.querySelector(`#actions tr[data-seq="${seq}"]`);
  if (row) {
    row.classList.add('selected');
    row.scrollIntoView({ block: 'nearest' });
  }
  document.getElementById('slider').value = seq;
  document.getElementById('step-value').textContent = `#${seq} of ${view.lastSeq}`;
  try {
    const [action, state] = await Promise.all([
      api(sessionPath(`actions/${seq}`)),
      api(sessionPath(`state?at=${seq}`)),
    ]);
    if (view.selected !== seq || currentSession() !== shown) return;
    showAction(action);
    showState(state, action.changes.map(c => c.path));
  } catch (error) {
    status(error.message);
  }
}

function showAction(action) {
  document.getElementById('selected').textContent = `#${action.seq} ${action.path}`;
  const leaks = document.getElementById('selected-leaks');
  leaks.replaceChildren(...action.leaks.map(leak =>
    element('div', 'leak', element('strong', null, leak.rule), ` in ${leak.feature || '(root)'}: `, leak.detail)));
  document.getElementById('changes').replaceChildren(...action.changes.map(change =>
    element('li', null, change.path, ': ',
      element('span', 'old', change.old ?? '∅'), ' → ', element('span', 'new', change.new ?? '∅'))));
  if (action.changes.length === 0) document.getElementById('changes').append(element('li', null, 'No change.'));
  document.getElementById('payload').textContent = action.payload ?? '(none)';
  const links = document.getElementById('links');
  links.replaceChildren();
  document.getElementById('send-json').value = action.payload_json ?? '';
  if (action.origin === 'effect') {
    links.append('Sent by the effect of ', actionLink(action.cause_seq, `#${action.cause_seq}`), '. ');
  } else if (action.origin === 'debugger') {
    links.append('Sent to the app from the page of tcatrace serve --live (Send to the app). ');
  } else {
    links.append('Sent from outside the store. ');
  }
  if (action.caused.length > 0) {
    links.append('Its effects sent: ');
    action.caused.forEach((caused, index) => {
      if (index > 0) links.append(', ');
      links.append(actionLink(caused.seq, `#${caused.seq} ${caused.path}`));
    });
  }
}

function actionLink(seq, text) {
  const link = element('a', 'action-link', text);
  link.tabIndex = 0;
  link.addEventListener('click', () => select(seq));
  return link;
}

// MARK: - The state tree

function join(parent, key) {
  if (!parent) return key;
  if (!key) return parent;
  return key.startsWith('[') ? parent + key : parent + '.' + key;
}

function showState(state, changedPaths) {
  const changed = new Set(changedPaths);
  const holds = path => changedPaths.some(p => p === path || p.startsWith(path + '.') || p.startsWith(path + '['));
  const root = document.getElementById('state');
  root.replaceChildren(renderNode(state.tree, null, '', changed, holds, true));
}

function describe(node) {
  if (node.text !== undefined) return node.text;
  if (node.string !== undefined) return JSON.stringify(node.string);
  if (node.children === undefined && node.case !== undefined) return `${node.type}.${node.case}`;
  if (node.case !== undefined) return `.${node.case}`;
  if (node.type !== undefined) return node.type;
  if (node.collection) return `[${node.children.length}]`;
  if (node.dictionary) return `[${node.children.length} keys]`;
  if (node.set) return `Set(${node.children.length})`;
  if (node.tuple) return '(…)';
  return '';
}

// A button that lists the actions that changed the value at `path`: its history, in the log.
// Its name is its label, and its mark is the style's: the node's text stays the state's.
function historyButton(path) {
  const button = element('button', 'history');
  button.type = 'button';
  button.title = `History of ${path}`;
  button.setAttribute('aria-label', button.title);
  button.dataset.path = path;
  button.addEventListener('click', event => {
    // Inside a summary, the click would also open or close its node.
    event.preventDefault();
    event.stopPropagation();
    document.getElementById('changed').value = path;
    resetLog();
  });
  return button;
}

function renderNode(node, label, path, changed, holds, open) {
  const name = label === null ? [] : [element('span', 'label', label + ': ')];
  const history = label === null ? [] : [historyButton(path)];
  if (node.children === undefined) {
    const leaf = element('div', 'leaf', ...name, describe(node), ...history);
    if (changed.has(path)) leaf.classList.add('changed');
    leaf.dataset.path = path;
    return leaf;
  }
  const details = element('details', null, element('summary', null, ...name, describe(node), ...history));
  details.dataset.path = path;
  if (changed.has(path)) details.classList.add('changed');
  details.open = open || holds(path);
  for (const child of node.children) {
    const childPath = join(path, child.key);
    const childLabel = child.label ?? child.key;
    details.append(renderNode(child.value, childLabel, childPath, changed, holds, false));
  }
  return details;
}

// MARK: - Features and their leaks

const ruleClasses = {
  'parent-reacts-to-private-child-action': 'rule-parent',
  'ancestor-reacts-to-grandchild-delegate': 'rule-ancestor',
  'effect-sends-view-action': 'rule-effect',
  'view-sends-private-action': 'rule-view',
};

// The most features drawn, and the deepest route: a picture beyond them is not one to read.
const mostFeatures = 400;
const deepestRoute = 32;

function svg(tag, attributes, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return appendChildren(node, children);
}

function shortened(text, length) {
  return text.length > length ? text.slice(0, length - 1) + '…' : text;
}

async function loadFeatures() {
  const shown = currentSession();
  const data = await api(sessionPath('features'));
  if (currentSession() !== shown) return;
  drawFeatures(data);
}

// The features as the tree their routes make, each leak an arrow from the feature that broke
// a rule to the one whose action it was.
function drawFeatures(data) {
  const reached = new Set(data.reaches.flatMap(r => [r.from, r.to]).filter(p => p !== null));
  const features = [...data.features]
    .sort((a, b) => (reached.has(b.path) - reached.has(a.path)) || (b.actions - a.actions))
    .slice(0, mostFeatures);
  const root = { path: '', name: data.root_feature, actions: 0, children: [] };
  const nodes = new Map([['', root]]);
  for (const feature of features) {
    const segments = feature.path === '' ? [] : feature.path.split('.');
    const parts = segments.length > deepestRoute
      ? [...segments.slice(0, deepestRoute - 1), segments.slice(deepestRoute - 1).join('.')]
      : segments;
    let node = root;
    parts.forEach((part, index) => {
      const path = parts.slice(0, index + 1).join('.');
      if (!nodes.has(path)) {
        const made = { path, name: part, actions: 0, children: [] };
        node.children.push(made);
        nodes.set(path, made);
      }
      node = nodes.get(path);
    });
    node.actions += feature.actions;
  }
  // Only the reaches between features drawn: a file with more than the picture holds gets a
  // note saying how many are left out.
  const reaches = data.reaches
    .filter(r => (r.from === null || nodes.has(r.from)) && nodes.has(r.to))
    .slice(0, mostFeatures);
  const outside = reaches.some(r => r.from === null);
  let slot = outside ? 1 : 0;
  let depth = 0;
  (function place(node, level) {
    node.level = level;
    depth = Math.max(depth, level);
    if (node.children.length === 0) {
      node.slot = slot++;
      return;
    }
    node.children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of node.children) place(child, level + 1);
    node.slot = (node.children[0].slot + node.children[node.children.length - 1].slot) / 2;
  })(root, outside ? 1 : 0);
  const x = node => 90 + node.slot * 170;
  const y = node => 40 + node.level * 90;
  const outsideNode = { slot: 0, level: 0, name: '(outside the store)', path: null };
  const picture = svg('svg', {
    id: 'features-svg', width: 170 * Math.max(slot, 1) + 150, height: 90 * (depth + 1) + 30,
    role: 'img', 'aria-label': 'Features and the leaks between them',
  });
  const defs = svg('defs', {});
  for (const className of Object.values(ruleClasses)) {
    defs.append(svg('marker', {
      id: `arrow-${className}`, class: className, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse',
    }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' })));
  }
  picture.append(defs);
  for (const node of nodes.values()) {
    for (const child of node.children) {
      picture.append(svg('line', { class: 'edge', x1: x(node), y1: y(node) + 14, x2: x(child), y2: y(child) - 14 }));
    }
  }
  const drawNode = (node, className) => {
    const group = svg('g', { class: className },
      svg('title', {}, node.path === null ? 'outside the store' : (node.path || data.root_feature)),
      svg('rect', { x: x(node) - 78, y: y(node) - 14, width: 156, height: 28, rx: 6 }),
      svg('text', { x: x(node), y: y(node) - 1, 'text-anchor': 'middle' }, shortened(node.name, 22)));
    if (node.path !== null) {
      group.append(svg('text', { class: 'count', x: x(node), y: y(node) + 10, 'text-anchor': 'middle' },
        `${node.actions} action${node.actions === 1 ? '' : 's'}`));
    }
    group.dataset.path = node.path === null ? '' : node.path;
    picture.append(group);
  };
  for (const node of nodes.values()) drawNode(node, 'feature');
  if (outside) drawNode(outsideNode, 'feature outside');
  reaches.forEach((reach, index) => {
    const from = reach.from === null ? outsideNode : nodes.get(reach.from);
    const to = nodes.get(reach.to);
    const className = ruleClasses[reach.rule] ?? 'rule-other';
    let d;
    let label;
    if (from === to) {
      // A feature's own: a loop on the right of its box.
      const [cx, cy] = [x(to) + 78, y(to)];
      const loop = 18 + 10 * (index % 3);
      d = `M ${cx} ${cy - 8} C ${cx + loop * 2} ${cy - loop * 2}, ${cx + loop * 2} ${cy + loop * 2}, ${cx + 2} ${cy + 8}`;
      label = [cx + loop * 1.6, cy + 4];
    } else {
      // From the edge of one box to the edge of the other, bent to one side or the other so
      // that arrows between the same boxes, and the tree's own lines, stay apart.
      const [fx, fy, tx, ty] = [x(from), y(from), x(to), y(to)];
      const edge = (px, py, qx, qy) => py === qy
        ? [px + Math.sign(qx - px) * 78, py]
        : [px, py + Math.sign(qy - py) * 14];
      const [x1, y1] = edge(fx, fy, tx, ty);
      const [x2, y2] = edge(tx, ty, fx, fy);
      const length = Math.hypot(x2 - x1, y2 - y1) || 1;
      const bend = (index % 2 === 0 ? 1 : -1) * Math.min(45 + ((20 * Math.floor(index / 2)) % 80), length * 0.45);
      const [mx, my] = [(x1 + x2) / 2 - ((y2 - y1) / length) * bend, (y1 + y2) / 2 + ((x2 - x1) / length) * bend];
      d = `M ${x1} ${y1} Q ${mx} ${my} ${x2} ${y2}`;
      label = [(x1 + 2 * mx + x2) / 4, (y1 + 2 * my + y2) / 4 + 4];
    }
    const group = svg('g', { class: `reach ${className}`, tabindex: 0 },
      svg('title', {}, `${reach.rule}: ${reach.from === null ? '(outside the store)' : reach.from || data.root_feature} → ${reach.to || data.root_feature}, ${reach.count} time${reach.count === 1 ? '' : 's'}, first #${reach.first_seq}`),
      svg('path', { d, 'marker-end': `url(#arrow-${className})` }),
      svg('text', { x: label[0], y: label[1], 'text-anchor': 'middle' }, `×${reach.count}`));
    group.dataset.rule = reach.rule;
    group.dataset.from = reach.from === null ? '' : reach.from;
    group.dataset.outside = String(reach.from === null);
    group.dataset.to = reach.to;
    group.dataset.first = reach.first_seq;
    group.addEventListener('click', () => select(reach.first_seq));
    group.addEventListener('keydown', event => { if (event.key === 'Enter') select(reach.first_seq); });
    picture.append(group);
  });
  const note = data.features.length > features.length || data.reaches.length > reaches.length
    ? [element('p', 'note', `Drawn: ${features.length} of ${data.features.length} features (those with leaks, then the most actions) and ${reaches.length} of ${data.reaches.length} arrows between them.`)]
    : [];
  document.getElementById('features-picture').replaceChildren(...note, picture);
  document.getElementById('features-legend').replaceChildren(...Object.entries(ruleClasses)
    .filter(([rule]) => data.reaches.some(r => r.rule === rule))
    .map(([rule, className]) => element('span', `legend ${className}`, rule)));
  if (data.reaches.length === 0) {
    document.getElementById('features-legend').append(element('span', null, 'No leaks in this session.'));
  }
}

// MARK: - Two sessions side by side

const compareMarks = { alike: '=', different: '≠', only_first: '−', only_second: '+' };

function clearComparison() {
  view.compareNext = null;
  document.getElementById('compare-summary').textContent = '';
  document.getElementById('compare-entries').replaceChildren();
  document.getElementById('compare-more').hidden = true;
}

async function compareSessions(event) {
  if (event) event.preventDefault();
  clearComparison();
  await loadComparison(null);
}

async function loadComparison(from) {
  const shown = currentSession();
  const [withFile, withSession] = document.getElementById('compare-with').value.split('/');
  const params = { with_file: withFile, with_session: withSession, limit: 100 };
  if (from !== null) params.from = from;
  let result;
  try {
    result = await api(sessionPath('compare?' + queryString(params)));
  } catch (error) {
    document.getElementById('compare-summary').textContent = error.message;
    return;
  }
  if (currentSession() !== shown) return;
  const counts = result.counts;
  const summary = `${counts.alike + counts.different} actions aligned: ${counts.alike} alike, ` +
    `${counts.different} that did something else; ${counts.only_first} only in this session, ` +
    `${counts.only_second} only in the other.`;
  document.getElementById('compare-summary').textContent = result.first_difference === null
    ? 'The sessions are alike: their actions have the same payloads and state changes.'
    : `They part at entry ${result.first_difference + 1} of ${result.entries_count}. ${summary}`;
  const body = document.getElementById('compare-entries');
  for (const entry of result.entries) {
    const kind = entry.kind === 'both' ? (entry.alike ? 'alike' : 'different') : entry.kind;
    const side = action => action === null
      ? [element('td', null), element('td', null)]
      : [element('td', null, action.seq),
         element('td', null, action.path + (action.payload ? ` ${action.payload}` : ''))];
    const row = element('tr', kind.replace('_', '-'),
      ...side(entry.first), element('td', 'mark', compareMarks[kind]), ...side(entry.second));
    row.dataset.entry = entry.index;
    if (entry.index === result.first_difference) row.classList.add('first-difference');
    if (entry.first !== null) {
      row.children[0].replaceChildren(actionLink(entry.first.seq, `#${entry.first.seq}`));
    }
    body.append(row);
    if (kind === 'different') body.append(differenceRow(entry));
  }
  view.compareNext = result.next;
  document.getElementById('compare-more').hidden = result.next === null;
  if (from === null) {
    const first = body.querySelector('tr.first-difference');
    if (first) first.scrollIntoView({ block: 'nearest' });
  }
}

// What two aligned actions did differently, as `tcatrace diff` says it: the server sends the
// changes each made that the other did not.
function differenceRow(entry) {
  const { first, second } = entry;
  const lines = [];
  if (first.origin !== second.origin) {
    const sentBy = origin => origin === 'effect' ? 'by an effect'
      : origin === 'debugger' ? 'from the debugger' : 'from outside the store';
    lines.push(`sent ${sentBy(first.origin)} here, ${sentBy(second.origin)} in the other`);
  }
  if (first.payload !== second.payload) {
    lines.push(`payload: ${first.payload ?? '(none)'} → ${second.payload ?? '(none)'}`);
  }
  const change = (c, sign) => `${sign} ${c.path}: ${c.old ?? '(none)'} → ${c.new ?? '(none)'}`;
  for (const c of entry.changes_only_first) lines.push(change(c, '−'));
  for (const c of entry.changes_only_second) lines.push(change(c, '+'));
  const cell = element('td', null, element('pre', null, lines.join('\n')));
  cell.colSpan = 5;
  return element('tr', 'difference', cell);
}

// MARK: - Driving a live app

// The controls show while the session shown is an app's that is connected.
function showDriving() {
  const file = view.file === null ? null : view.files[view.file];
  const connected = Boolean(file && file.live && file.live.connected);
  document.getElementById('drive').hidden = !connected;
  if (!connected) view.locked.delete(view.file);
  document.getElementById('lock').textContent =
    view.locked.has(view.file) ? 'Unlock the app' : 'Lock the app';
}

async function drive(command, query, body) {
  const line = document.getElementById('drive-status');
  line.classList.remove('refused');
  line.textContent = '…';
  try {
    const done = await post(`files/${view.file}/live/${command}${query ? '?' + queryString(query) : ''}`, body);
    line.textContent = done;
    return true;
  } catch (error) {
    line.classList.add('refused');
    line.textContent = error.message;
    return false;
  }
}

// MARK: - Keys, slider, filters, live

function step(delta) {
  if (view.rows.length === 0) return;
  const index = view.rows.indexOf(view.selected);
  const target = index === -1 ? 0 : Math.min(Math.max(index + delta, 0), view.rows.length - 1);
  if (delta > 0 && index >= view.rows.length - 2) loadPage();
  select(view.rows[target]);
}

document.addEventListener('keydown', event => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === 'ArrowDown' || event.key === 'j') { event.preventDefault(); step(1); }
  if (event.key === 'ArrowUp' || event.key === 'k') { event.preventDefault(); step(-1); }
});

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('jump').addEventListener('click', () => {
    if (view.selected !== null) drive('jump', { seq: view.selected });
  });
  document.getElementById('back').addEventListener('click', () => drive('back'));
  document.getElementById('send').addEventListener('click', () =>
    drive('send', null, document.getElementById('send-json').value));
  document.getElementById('lock').addEventListener('click', async () => {
    const file = view.file;
    const locked = view.locked.has(file);
    if (await drive(locked ? 'unlock' : 'lock')) {
      if (locked) view.locked.delete(file); else view.locked.add(file);
    }
    showDriving();
  });
  document.getElementById('session').addEventListener('change', event => {
    const [file, session] = event.target.value.split('/').map(Number);
    openSession(file, session);
  });
  let sliderTimer = null;
  document.getElementById('slider').addEventListener('input', event => {
    clearTimeout(sliderTimer);
    const seq = Number(event.target.value);
    sliderTimer = setTimeout(() => { if (seq > 0) select(seq); }, 80);
  });
  let filterTimer = null;
  document.getElementById('filters').addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(resetLog, 200);
  });
  document.getElementById('filters').addEventListener('submit', event => event.preventDefault());
  document.getElementById('sql-form').addEventListener('submit', runSQL);
  document.getElementById('compare-form').addEventListener('submit', compareSessions);
  document.getElementById('compare-more').addEventListener('click', () => {
    if (view.compareNext !== null) loadComparison(view.compareNext);
  });
  document.getElementById('features-panel').addEventListener('toggle', event => {
    if (event.target.open && view.session !== null) loadFeatures().catch(error => status(error.message));
  });
  new IntersectionObserver(entries => {
    if (entries.some(e => e.isIntersecting)) loadPage();
  }, { root: document.getElementById('log') }).observe(document.getElementById('more'));
  // Live: once the log has reached the end, ask every second for what was written since.
  setInterval(() => {
    if (view.session !== null && view.next === null && !view.loading) {
      view.next = view.lastSeq + 1;
      loadPage().then(() => {
        if (view.next === null) document.getElementById('step-value').textContent =
          view.selected === null ? '' : `#${view.selected} of ${view.lastSeq}`;
      });
    }
  }, 1000);
  loadFiles().catch(error => status(error.message));
  if (document.body.dataset.live === 'true') {
    setInterval(() => { refreshFiles().catch(error => status(error.message)); }, 2000);
  }
});
