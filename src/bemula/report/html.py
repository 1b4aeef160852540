"""The report page: a summary on top, tables, plots, and a drill-down to every question.

``index.html`` holds what a reader needs first (summary, tables, plots as data URIs) and
stays small whatever the dataset's size; the data-heavy parts are side files loaded only
when asked for: ``data/run-<i>.js`` (one run's questions, answers, retrieved memory, verdicts
and residues) and ``data/instance-<id>.js`` (the turns that stated each fact and each
request's session in both versions). They are ``<script>`` files, not JSON, so the page
works opened straight from disk (``file://`` forbids ``fetch``).

Every text that came from a system or a dataset is inserted with ``textContent``, never as
HTML, so an answer cannot inject markup; in the data files ``<`` ``>`` ``&`` are escaped too.

Deep link: ``index.html#item=<run>/<instance>/<question>`` opens that question's panel
(``<run>`` is the run's position in the tables, from 0). ``?click=last`` clicks the last
row of the first page once it is drawn (what the browser test does).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from typing import Any

from bemula.metrics.compute import MetricValue
from bemula.report import summary as summary_mod
from bemula.report.tables import Table, cell_text

#: retrieved memory shown per question (each item cut to this many characters)
MAX_RETRIEVED_ITEMS = 5
MAX_RETRIEVED_CHARS = 600
MAX_ANSWER_CHARS = 4000
#: rows of the question list per page
PAGE_SIZE = 100
#: receipts shown per run in the page (all are in the run's receipts.jsonl)
MAX_RECEIPTS = 50

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1400px;color:#1d2228;padding:0 16px}
h1{font-size:1.6em;margin-bottom:4px}h2{margin-top:32px;border-bottom:1px solid #dde;padding-bottom:4px}
.meta{color:#667;font-size:.9em}
table.metrics{border-collapse:collapse;margin:8px 0 4px;font-size:.9em}
table.metrics th,table.metrics td{border:1px solid #ccd;padding:4px 8px;text-align:right;white-space:nowrap}
table.metrics th:first-child,table.metrics td:first-child{text-align:left}
table.metrics thead th{background:#f2f4f8}
table.metrics .ci,table.metrics .n{color:#667;font-size:.8em}
table.metrics td.small-n{background:#fff8e1}
.note{color:#667;font-size:.85em}
.reading{max-width:60em;line-height:1.45}
dl.defs{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:.9em;max-width:70em}
dl.defs dt{font-weight:600}dl.defs dd{margin:0}
img.plot{max-width:100%;border:1px solid #eee;margin:6px 0}
figure{display:inline-block;vertical-align:top;margin:0 12px 12px 0;max-width:100%}
figcaption{font-size:.85em;color:#445}
.tablewrap{overflow-x:auto;max-width:100%}
.controls{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin:8px 0}
.controls select,.controls input,.controls button{padding:3px}
#items{border-collapse:collapse;font-size:.85em;width:100%}
#items th,#items td{border-bottom:1px solid #e4e6ea;padding:3px 6px;text-align:left;vertical-align:top}
#items tbody tr{cursor:pointer}#items tbody tr:hover{background:#f5f8ff}
#items tr.selected{background:#e6efff}
.ok{color:#137333;font-weight:600}.bad{color:#b3261e;font-weight:600}.uns{color:#8a6d00;font-weight:600}
#detail{display:none;position:fixed;top:0;right:0;width:min(48%,760px);height:100%;overflow:auto;box-sizing:border-box;
  border-left:2px solid #9ab;background:#fbfcfe;padding:12px 16px;box-shadow:-4px 0 12px rgba(0,0,0,.12);z-index:10}
#detail.open{display:block}
#detail .bar{display:flex;gap:8px;align-items:center;justify-content:space-between}
#detail dt{font-weight:600;margin-top:10px}#detail dd{margin:2px 0 0 0;white-space:pre-wrap}
#detail .retrieved div,#detail .residue{border-left:3px solid #cdd;padding-left:6px;margin:4px 0;white-space:pre-wrap}
.versions{display:grid;grid-template-columns:1fr 1fr;gap:8px;font-size:.85em}
.versions h4{margin:4px 0}
.turn{border:1px solid #e3e6ea;border-radius:4px;padding:3px 6px;margin:3px 0;white-space:pre-wrap}
.turn.only{background:#fff1c2;border-color:#e0b000}
.turn.request{outline:2px solid #b3261e}
.turn .who{color:#667;font-size:.85em}
details.receipts{margin:6px 0}
.receipts td,.receipts th{font-size:.85em;white-space:normal!important;max-width:28em}
.pager{display:flex;gap:8px;align-items:center;margin:6px 0}
"""

JS = r"""
(function(){
  const META = JSON.parse(document.getElementById('bemula-meta').textContent);
  const loaded = {run:{}, instance:{}}; const waiting = {};
  window.bemulaLoaded = function(kind, key, data){ loaded[kind][key] = data; (waiting[kind+':'+key]||[]).forEach(f=>f(data)); delete waiting[kind+':'+key]; };
  function need(kind, key, file){
    return new Promise((resolve, reject)=>{
      if(loaded[kind][key]) return resolve(loaded[kind][key]);
      const k = kind+':'+key; const first = !waiting[k]; (waiting[k] = waiting[k]||[]).push(resolve);
      if(first){ const s=document.createElement('script'); s.src=file; s.onerror=()=>reject(new Error('cannot load '+file)); document.head.appendChild(s); }
    });
  }
  const runData = i => need('run', String(i), 'data/run-'+i+'.js');
  const instData = id => need('instance', id, 'data/instance-'+id+'.js');
  const $ = id => document.getElementById(id);
  const runSel=$('run-select'), instSel=$('instance-select'), suiteSel=$('suite-select'), verdictSel=$('verdict-select'), search=$('search');
  const tbody=document.querySelector('#items tbody'), detail=$('detail'), count=$('item-count'), pageInfo=$('page-info');
  let page = 0;
  function el(tag, text, cls){const e=document.createElement(tag); if(text!==undefined&&text!==null) e.textContent=String(text); if(cls) e.className=cls; return e;}
  function mark(it){ if(it.correct===null) return ['unscored','uns']; return it.correct ? ['correct','ok'] : ['wrong','bad']; }
  META.runs.forEach((r,i)=>{const o=el('option', r.label); o.value=i; runSel.appendChild(o);});
  function fillInstances(run){
    instSel.innerHTML=''; const all=el('option','all instances'); all.value=''; instSel.appendChild(all);
    run.instances.forEach(id=>{const o=el('option',id); o.value=id; instSel.appendChild(o);});
  }
  function visible(run){
    const q = search.value.toLowerCase();
    return run.items.filter(it => (!instSel.value || it.instance===instSel.value)
      && (!suiteSel.value || it.suite===suiteSel.value)
      && (!verdictSel.value || mark(it)[0]===verdictSel.value)
      && (!q || (it.question+' '+it.answer+' '+it.id).toLowerCase().includes(q)));
  }
  async function render(){
    const i = runSel.value; count.textContent='loading…';
    const run = await runData(i);
    if(instSel.options.length===0) fillInstances(run);
    const items = visible(run); const pages = Math.max(1, Math.ceil(items.length/META.page_size));
    page = Math.min(page, pages-1); tbody.innerHTML='';
    items.slice(page*META.page_size, (page+1)*META.page_size).forEach(it=>{
      const tr=document.createElement('tr'); tr.id='row-'+i+'-'+it.instance+'-'+it.id; const m=mark(it);
      [it.instance, it.id, it.suite+(it.probe?' (probe)':''), it.frame||'', it.request||'', it.question].forEach(v=>tr.appendChild(el('td', v)));
      tr.appendChild(el('td', m[0], m[1])); tr.appendChild(el('td', it.status));
      tr.addEventListener('click', ()=>openItem(i, it.instance, it.id));
      tbody.appendChild(tr);
    });
    count.textContent = items.length+' questions'; pageInfo.textContent = 'page '+(page+1)+' of '+pages;
    $('prev').disabled = page===0; $('next').disabled = page>=pages-1;
  }
  function turnsBox(title, turns, other, requestTurn){
    const box = el('div'); box.appendChild(el('h4', title));
    if(!turns || !turns.length){ box.appendChild(el('div','(no turns)','note')); return box; }
    const ids = new Set((other||[]).map(t=>t.id+'\u0000'+t.text));
    turns.forEach(t=>{ const d=el('div', null, 'turn'+(ids.has(t.id+'\u0000'+t.text)?'':' only')+(t.id===requestTurn?' request':''));
      d.appendChild(el('div', t.id+' · '+t.role+' · '+t.time, 'who')); d.appendChild(el('div', t.text)); box.appendChild(d); });
    return box;
  }
  async function openItem(runIndex, instance, qid){
    const run = await runData(runIndex); const it = run.items.find(x=>x.instance===instance && x.id===qid); if(!it) return false;
    if(runSel.value!==String(runIndex)){ runSel.value=String(runIndex); fillInstances(run); await render(); }
    const ctx = await instData(instance).catch(()=>null);
    detail.innerHTML='';
    const bar = el('div', null, 'bar'); bar.appendChild(el('h3', run.label+' — '+it.instance+' / '+it.id));
    const link = el('a', 'link to this question'); link.href = '#item='+runIndex+'/'+instance+'/'+qid; link.id='detail-link';
    const close = el('button', 'close ✕'); close.addEventListener('click', ()=>{detail.classList.remove('open'); history.replaceState(null,'',location.pathname+location.search);});
    bar.appendChild(link); bar.appendChild(close); detail.appendChild(bar);
    const dl = document.createElement('dl');
    function row(k,v,cls){ dl.appendChild(el('dt',k)); const dd=el('dd',v,cls); dd.dataset.field=k; dl.appendChild(dd); return dd; }
    row('question', it.question);
    row('suite / version', it.suite+' / '+it.version+(it.frame?' / frame '+it.frame:'')+(it.request?' / request '+it.request+(it.type?' ('+it.type+')':''):''));
    row('gold', it.gold_kind+(it.accepted.length?' — accepted: '+it.accepted.join(' | '):'')+(it.protected.length?' — protected: '+it.protected.join(' | '):''));
    row('answer', it.answer || '(empty)');
    if(it.error) row('backbone error', it.error, 'bad');
    const m = mark(it);
    row('verdict', m[0]+(it.leaked?' — leaked a protected value':''), m[1]);
    row('reason', it.reason||'');
    row('counts in metric', it.status+(it.probe_id?' (control probe '+it.probe_id+')':''));
    const ret = row('retrieved', it.retrieved.length ? '' : '(nothing retrieved)'); ret.className='retrieved';
    it.retrieved.forEach(r=>ret.appendChild(el('div', (r.store?'['+r.store+'] ':'')+r.text)));
    if(it.retrieved_more) ret.appendChild(el('div', '… '+it.retrieved_more+' more item(s) not shown'));
    if(ctx){
      const fact = it.fact && ctx.facts[it.fact];
      if(fact){ const dd=row('where the fact was stated', fact.value+' — '+fact.statement);
        const grid=el('div',null,'versions'); grid.appendChild(turnsBox('forget version', fact.stated.forget, fact.stated.control));
        grid.appendChild(turnsBox('control version', fact.stated.control, fact.stated.forget)); dd.appendChild(grid); }
      const req = it.request && ctx.requests[it.request];
      if(req){ const dd=row('the request ('+req.type+')', req.text);
        const grid=el('div',null,'versions'); grid.appendChild(turnsBox('forget version (highlighted: not in the other version)', req.forget, req.control, req.turn_id));
        grid.appendChild(turnsBox('control version', req.control, req.forget)); dd.appendChild(grid); }
    }
    const found = (run.residues[instance]||[]).filter(r=>!it.request || r.request_id===it.request);
    const res = row('what the audit found in the stores', found.length ? '' : (run.audited ? 'nothing: no residue of this request' : 'not audited (run `bemula audit`)'));
    found.slice(0,10).forEach(r=>res.appendChild(el('div', '['+r.store+' '+r.record_id+'] '+r.match+' of “'+r.value+'”: '+r.snippet, 'residue')));
    detail.appendChild(dl); detail.classList.add('open'); detail.dataset.item = runIndex+'/'+instance+'/'+qid;
    history.replaceState(null, '', '#item='+runIndex+'/'+instance+'/'+qid);
    document.querySelectorAll('#items tr.selected').forEach(t=>t.classList.remove('selected'));
    const tr = $('row-'+runIndex+'-'+instance+'-'+qid); if(tr) tr.classList.add('selected');
    document.body.dataset.detail = 'open';
    return true;
  }
  async function fromHash(){
    const m = /item=([^\/]+)\/([^\/]+)\/(.+)$/.exec(decodeURIComponent(location.hash));
    if(m) await openItem(m[1], m[2], m[3]);
  }
  runSel.addEventListener('change', ()=>{instSel.innerHTML=''; page=0; render();});
  [instSel, suiteSel, verdictSel].forEach(s=>s.addEventListener('change', ()=>{page=0; render();}));
  search.addEventListener('input', ()=>{page=0; render();});
  $('prev').addEventListener('click', ()=>{page--; render();}); $('next').addEventListener('click', ()=>{page++; render();});
  window.addEventListener('hashchange', fromHash);
  (async function(){
    await render(); await fromHash();
    const click = new URLSearchParams(location.search).get('click');
    if(click){ const rows=tbody.querySelectorAll('tr'); const tr = click==='last' ? rows[rows.length-1] : rows[Number(click)];
      if(tr){ tr.click(); await new Promise(r=>{ const t=setInterval(()=>{ if(document.body.dataset.detail==='open'){clearInterval(t); r();} }, 20); }); } }
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    if(paint) document.body.dataset.firstPaintMs = String(Math.round(paint.startTime));
    document.body.dataset.ready = 'true';
  })().catch(e=>{ count.textContent='error: '+e.message; document.body.dataset.ready='error'; });
})();
"""


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def script_json(value: Any) -> str:
    """JSON for inside a script: no ``<``, ``>`` or ``&`` survives, so nothing can close the
    script block or open a new one; JavaScript reads the ``\\u`` escapes back as the same text."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def data_file(kind: str, key: str, value: Any) -> str:
    """A side file the page loads on demand (``data/<kind>-<key>.js``)."""
    return f"window.bemulaLoaded({script_json(kind)},{script_json(key)},{script_json(value)});\n"


def table_html(table: Table) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in table.columns)
    body = []
    for label, cells in table.rows:
        tds = "".join(_cell_td(c) for c in cells)
        body.append(f"<tr><td>{_esc(label)}</td>{tds}</tr>")
    note = f'<p class="note">{_esc(table.note)}</p>' if table.note else ""
    return (
        f'<h3>{_esc(table.title)}</h3><div class="tablewrap"><table class="metrics" id="table-{_esc(table.name)}">'
        f"<thead><tr><th>System</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{note}"
    )


def _cell_td(mv: MetricValue | None) -> str:
    """The value, its interval and its n in small grey type; a cell on few items is marked."""
    c = summary_mod.cell(mv)
    if c.text == "–":
        return f'<td title="no data">–{f" <span class=n>n={c.n}</span>" if mv is not None else ""}</td>'
    if mv is not None and mv.value is not None and " [" not in cell_text(mv):
        return f'<td><span title="n = {c.n}">{_esc(c.text)}</span> <span class="n">n={c.n}</span></td>'
    small = f' class="small-n" title="fewer than {summary_mod.SMALL_N} items: a wide interval"' if c.small else ""
    mark = "†" if c.small else ""
    return (f'<td{small}><span title="n = {c.n}">{_esc(c.text)}</span>{mark} <span class="ci">{_esc(c.interval)}</span> '
            f'<span class="n">n={c.n}</span></td>')


def receipts_html(label: str, receipts: list[dict[str, Any]]) -> str:
    """Deletion receipts as a readable table: the columns a system reported, nested values
    shortened to a line, at most ``MAX_RECEIPTS`` rows (all are in receipts.jsonl)."""
    keys: list[str] = []
    for r in receipts:
        keys += [k for k in r if k not in keys]
    head = "".join(f"<th>{_esc(k.replace('_', ' '))}</th>" for k in keys)
    rows = []
    for r in receipts[:MAX_RECEIPTS]:
        cells = []
        for k in keys:
            v = r.get(k, "")
            if isinstance(v, list):
                text = ", ".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in v[:6])
                text += f" … (+{len(v) - 6})" if len(v) > 6 else ""
            elif isinstance(v, dict):
                text = "; ".join(f"{a}: {b}" for a, b in list(v.items())[:6])
            else:
                text = str(v)
            cells.append(f"<td>{_esc(text[:200])}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    more = (f'<p class="note">{len(receipts) - MAX_RECEIPTS} more in the run\'s receipts.jsonl</p>'
            if len(receipts) > MAX_RECEIPTS else "")
    return (
        f'<details class="receipts"><summary>{_esc(label)}: {len(receipts)} receipt(s)</summary>'
        f'<div class="tablewrap"><table class="metrics receipts"><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></div>{more}</details>'
    )


def summary_html(main: Table, reading: str, exclusions: Sequence[str]) -> str:
    defs = "".join(f"<dt>{_esc(m.label)}</dt><dd>{_esc(m.title)}: {_esc(words)}</dd>"
                   for m, words in summary_mod.definitions())
    excl = "".join(f"<li>{_esc(line)}</li>" for line in exclusions)
    return (
        f'<section id="summary"><h2>Summary</h2>{table_html(main)}'
        f'<p class="note">Each cell: value on 0–100, its 95% interval, and n (the items it rests on). '
        f'† marks a cell on fewer than {summary_mod.SMALL_N} items.</p>'
        f'<dl class="defs">{defs}</dl>'
        f'<p class="reading" id="reading">{_esc(reading)}</p>'
        f'<h3>What was left out, and why</h3><ul class="note" id="exclusions">{excl}</ul></section>'
    )


def render_page(
    *,
    title: str,
    subtitle: str,
    summary: str,
    tables: Sequence[Table],
    plots: dict[str, bytes],
    runs: list[dict[str, Any]],
    receipts: list[tuple[str, list[dict[str, Any]]]],
    notes: Sequence[str] = (),
) -> str:
    plot_titles = {
        "tradeoff": "Efficacy–preservation trade-off",
        "fe_by_type": "Forgetting efficacy per request type",
        "ar_by_frame": "Attack robustness per attack frame",
        "length_curves": "Metrics by dialogue length",
    }
    plots_html = "".join(
        f'<figure><img class="plot" id="plot-{_esc(name)}" alt="{_esc(plot_titles.get(name, name))}" '
        f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'
        f"<figcaption>{_esc(plot_titles.get(name, name))}</figcaption></figure>"
        for name, png in plots.items()
    )
    meta = script_json({"runs": runs, "page_size": PAGE_SIZE})
    suites = "".join(f'<option value="{s}">{s}</option>' for s in ("retention", "efficacy", "preservation", "relearning", "attack"))
    receipts_block = "".join(receipts_html(label, r) for label, r in receipts if r)
    notes_html = "".join(f'<p class="note">{_esc(n)}</p>' for n in notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_esc(title)}</title><style>{CSS}</style></head>
<body data-ready="false">
<h1>{_esc(title)}</h1><p class="meta">{_esc(subtitle)}</p>
{summary}
<h2>Tables</h2>
{''.join(table_html(t) for t in tables)}
{notes_html}
<h2>Plots</h2>
{plots_html}
<h2>Questions</h2>
<p class="note">Click a question for its panel: gold, answer, verdict and reason, what was retrieved, where the fact
was stated and the request in both versions, and what the audit found in the stores. The panel's link opens it again.</p>
<div class="controls">
<label>Run <select id="run-select"></select></label>
<label>Instance <select id="instance-select"></select></label>
<label>Suite <select id="suite-select"><option value="">all suites</option>{suites}</select></label>
<label>Verdict <select id="verdict-select"><option value="">all verdicts</option><option value="correct">correct</option><option value="wrong">wrong</option><option value="unscored">unscored</option></select></label>
<label>Search <input id="search" type="search" placeholder="question or answer text"></label>
<span id="item-count" class="note"></span>
</div>
<div class="pager"><button id="prev">← previous</button><span id="page-info" class="note"></span><button id="next">next →</button></div>
<div id="detail" aria-live="polite"></div>
<table id="items"><thead><tr><th>Instance</th><th>Question</th><th>Suite</th><th>Frame</th><th>Request</th><th>Text</th><th>Verdict</th><th>Counts</th></tr></thead><tbody></tbody></table>
{('<h2>Deletion receipts</h2>' + receipts_block) if receipts_block else ''}
<script type="application/json" id="bemula-meta">{meta}</script>
<script>{JS}</script>
</body></html>
"""
