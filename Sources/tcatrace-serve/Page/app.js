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
  next: 1,          // the seq the log's next page starts from; null at the end
  rows: [],         // the seqs in the log, in order
  selected: null,   // the selected seq
  loading: false,
  generation: 0,    // bumped when the log is reset: late answers for an older log are dropped
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

function element(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
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
  if (document.getElementById('leaks-only').checked) params.leaks = 'true';
  return params;
}

// MARK: - Sessions

async function loadFiles() {
  view.files = await api('files');
  const select = document.getElementById('session');
  select.replaceChildren();
  const errors = [];
  for (const file of view.files) {
    if (file.error) {
      errors.push(`${file.name}: ${file.error}`);
      continue;
    }
    for (const session of file.sessions) {
      const option = element('option', null,
        `${file.name} · #${session.id} ${session.root_feature} (${session.actions} actions, ${session.leaks} leaks)`);
      option.value = `${file.index}/${session.id}`;
      select.append(option);
    }
  }
  document.getElementById('file-errors').textContent = errors.join('\n');
  if (select.options.length > 0) {
    const [file, session] = select.options[0].value.split('/').map(Number);
    await openSession(file, session);
  } else {
    status('No session to show.');
  }
}

async function openSession(file, session) {
  view.file = file;
  view.session = session;
  const info = view.files[file].sessions.find(s => s.id === session);
  view.lastSeq = info ? info.actions : 0;
  document.getElementById('session').value = `${file}/${session}`;
  const download = kind => `/api/${sessionPath(kind)}?${queryString({ token })}`;
  document.getElementById('download-perfetto').href = download('perfetto');
  document.getElementById('download-test').href = download('test');
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
    const page = await api(sessionPath('actions?' + queryString(params)));
    if (generation !== view.generation) return;
    status('');
    appendRows(page.actions);
    view.next = page.next;
    document.getElementById('more').textContent =
      view.next === null ? `${view.rows.length} actions` : 'Loading more as you scroll…';
  } catch (error) {
    if (generation === view.generation) status(error.message);
  } finally {
    view.loading = false;
    // The log was reset while this page was on its way: its answer was dropped, and the reset's
    // own load found this one running and did nothing, so load the new log's first page now.
    if (generation !== view.generation) loadPage();
  }
}

function appendRows(actions) {
  const body = document.getElementById('actions');
  for (const action of actions) {
    const row = element('tr', null,
      element('td', null, action.seq),
      element('td', null, formatTime(action.time_ns)),
      element('td', `category ${action.category}`, action.category),
      element('td', null, action.feature || '(root)'),
      element('td', null, action.case + (action.payload ? ` ${action.payload}` : '')),
      element('td', null, action.origin === 'send' ? 'sent' : `by #${action.cause_seq}`),
      element('td', null));
    row.dataset.seq = action.seq;
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
  slider.min = view.lastSeq > 0 ? 1 : 0;
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
  if (action.origin === 'effect') {
    links.append('Sent by the effect of ', actionLink(action.cause_seq, `#${action.cause_seq}`), '. ');
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

function renderNode(node, label, path, changed, holds, open) {
  const name = label === null ? [] : [element('span', 'label', label + ': ')];
  if (node.children === undefined) {
    const leaf = element('div', 'leaf', ...name, describe(node));
    if (changed.has(path)) leaf.classList.add('changed');
    leaf.dataset.path = path;
    return leaf;
  }
  const details = element('details', null, element('summary', null, ...name, describe(node)));
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
});
