"""One self-contained HTML page: tables, plots (base64 PNG) and a drill-down to every question.

Self-contained means no network and no side files: CSS and JS are inline, the plots are
data URIs, the drill-down data is one JSON block. Every text that came from a system or a
dataset (answers, retrieved memory, questions) is inserted with ``textContent`` by the
script, never as HTML, so an answer cannot inject markup into the page.

Deep link: ``index.html#item=<run>/<instance>/<question>`` opens that question's drill-down
(``<run>`` is the run's position in the table, from 0).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from typing import Any

from bemula.metrics.compute import MetricValue
from bemula.report.tables import Table, cell_text

#: retrieved memory shown per question (each item cut to this many characters)
MAX_RETRIEVED_ITEMS = 5
MAX_RETRIEVED_CHARS = 600
MAX_ANSWER_CHARS = 4000

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1400px;color:#1d2228;padding:0 16px}
h1{font-size:1.6em;margin-bottom:4px}h2{margin-top:32px;border-bottom:1px solid #dde;padding-bottom:4px}
.meta{color:#667;font-size:.9em}
table.metrics{border-collapse:collapse;margin:8px 0 4px;font-size:.9em}
table.metrics th,table.metrics td{border:1px solid #ccd;padding:4px 8px;text-align:right;white-space:nowrap}
table.metrics th:first-child,table.metrics td:first-child{text-align:left}
table.metrics thead th{background:#f2f4f8}
.note{color:#667;font-size:.85em}
img.plot{max-width:100%;border:1px solid #eee;margin:6px 0}
figure{display:inline-block;vertical-align:top;margin:0 12px 12px 0;max-width:100%}
.tablewrap{overflow-x:auto;max-width:100%}
table.metrics .ci{color:#667;font-size:.85em}
.controls{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin:8px 0}
.controls select,.controls input{padding:3px}
#items{border-collapse:collapse;font-size:.85em;width:100%}
#items th,#items td{border-bottom:1px solid #e4e6ea;padding:3px 6px;text-align:left;vertical-align:top}
#items tbody tr{cursor:pointer}#items tbody tr:hover{background:#f5f8ff}
#items tr.selected{background:#e6efff}
.ok{color:#137333;font-weight:600}.bad{color:#b3261e;font-weight:600}.uns{color:#8a6d00;font-weight:600}
#detail{display:none;border:1px solid #bcd;background:#fafcff;padding:12px 16px;margin:10px 0;border-radius:6px}
#detail.open{display:block}
#detail dt{font-weight:600;margin-top:8px}#detail dd{margin:2px 0 0 0;white-space:pre-wrap}
#detail .retrieved div{border-left:3px solid #cdd;padding-left:6px;margin:4px 0;white-space:pre-wrap}
.receipts td,.receipts th{font-size:.85em}
"""

JS = r"""
(function(){
  const DATA = JSON.parse(document.getElementById('bemula-data').textContent);
  const runSel = document.getElementById('run-select');
  const instSel = document.getElementById('instance-select');
  const suiteSel = document.getElementById('suite-select');
  const verdictSel = document.getElementById('verdict-select');
  const search = document.getElementById('search');
  const tbody = document.querySelector('#items tbody');
  const detail = document.getElementById('detail');
  const count = document.getElementById('item-count');
  function el(tag, text, cls){const e=document.createElement(tag); if(text!==undefined&&text!==null) e.textContent=String(text); if(cls) e.className=cls; return e;}
  function mark(it){ if(it.correct===null) return ['unscored','uns']; return it.correct ? ['correct','ok'] : ['wrong','bad']; }
  DATA.runs.forEach((r,i)=>{const o=el('option', r.label); o.value=i; runSel.appendChild(o);});
  function fillInstances(){
    const run = DATA.runs[runSel.value]; instSel.innerHTML='';
    const all = el('option','all instances'); all.value=''; instSel.appendChild(all);
    run.instances.forEach(id=>{const o=el('option',id); o.value=id; instSel.appendChild(o);});
  }
  function visible(){
    const run = DATA.runs[runSel.value]; const q = search.value.toLowerCase();
    return run.items.filter(it => (!instSel.value || it.instance===instSel.value)
      && (!suiteSel.value || it.suite===suiteSel.value)
      && (!verdictSel.value || mark(it)[0]===verdictSel.value)
      && (!q || (it.question+' '+it.answer+' '+it.id).toLowerCase().includes(q)));
  }
  function render(){
    const items = visible(); tbody.innerHTML='';
    items.slice(0, 2000).forEach(it=>{
      const tr = document.createElement('tr'); tr.id = 'row-'+runSel.value+'-'+it.instance+'-'+it.id;
      const m = mark(it);
      [it.instance, it.id, it.suite + (it.probe ? ' (probe)' : ''), it.frame||'', it.request||'', it.question].forEach(v=>tr.appendChild(el('td', v)));
      tr.appendChild(el('td', m[0], m[1])); tr.appendChild(el('td', it.status));
      tr.addEventListener('click', ()=>openItem(runSel.value, it.instance, it.id));
      tbody.appendChild(tr);
    });
    count.textContent = items.length + ' questions' + (items.length>2000 ? ' (first 2000 shown; filter to see more)' : '');
  }
  function openItem(runIndex, instance, qid){
    const run = DATA.runs[runIndex]; if(!run) return false;
    const it = run.items.find(x=>x.instance===instance && x.id===qid); if(!it) return false;
    if(runSel.value!==String(runIndex)){ runSel.value=String(runIndex); fillInstances(); render(); }
    detail.innerHTML='';
    detail.appendChild(el('h3', run.label+' — '+it.instance+' / '+it.id));
    const dl = document.createElement('dl');
    function row(k,v,cls){ dl.appendChild(el('dt',k)); const dd=el('dd',v,cls); dd.dataset.field=k; dl.appendChild(dd); return dd; }
    row('question', it.question);
    row('suite / version', it.suite+' / '+it.version+(it.frame?' / frame '+it.frame:'')+(it.request?' / request '+it.request+(it.type?' ('+it.type+')':''):''));
    row('gold', it.gold_kind+(it.accepted.length?' — accepted: '+it.accepted.join(' | '):'')+(it.protected.length?' — protected: '+it.protected.join(' | '):''));
    row('answer', it.answer || '(empty)');
    if(it.error) row('backbone error', it.error, 'bad');
    const ret = row('retrieved', it.retrieved.length ? '' : '(nothing retrieved)'); ret.className='retrieved';
    it.retrieved.forEach(r=>ret.appendChild(el('div', (r.store?'['+r.store+'] ':'')+r.text)));
    if(it.retrieved_more) ret.appendChild(el('div', '… '+it.retrieved_more+' more item(s) not shown'));
    const m = mark(it);
    row('verdict', m[0]+(it.leaked?' — leaked a protected value':''), m[1]);
    row('reason', it.reason||'');
    row('counts in metric', it.status + (it.probe_id ? ' (control probe '+it.probe_id+')' : ''));
    detail.appendChild(dl); detail.classList.add('open'); detail.dataset.item = runIndex+'/'+instance+'/'+qid;
    document.querySelectorAll('#items tr.selected').forEach(t=>t.classList.remove('selected'));
    const tr = document.getElementById('row-'+runIndex+'-'+instance+'-'+qid); if(tr) tr.classList.add('selected');
    return true;
  }
  function fromHash(){
    const m = /item=([^\/]+)\/([^\/]+)\/(.+)$/.exec(decodeURIComponent(location.hash));
    if(m) openItem(m[1], m[2], m[3]);
  }
  runSel.addEventListener('change', ()=>{fillInstances(); render();});
  [instSel, suiteSel, verdictSel].forEach(s=>s.addEventListener('change', render));
  search.addEventListener('input', render);
  window.addEventListener('hashchange', fromHash);
  fillInstances(); render(); fromHash();
  document.body.dataset.ready = 'true';
})();
"""


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def table_html(table: Table) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in table.columns)
    body = []
    for label, cells in table.rows:
        tds = "".join(f"<td>{_cell_html(c)}</td>" for c in cells)
        body.append(f"<tr><td>{_esc(label)}</td>{tds}</tr>")
    note = f'<p class="note">{_esc(table.note)}</p>' if table.note else ""
    return (
        f'<h3>{_esc(table.title)}</h3><div class="tablewrap"><table class="metrics" id="table-{_esc(table.name)}">'
        f"<thead><tr><th>System</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{note}"
    )


def _cell_html(mv: MetricValue | None) -> str:
    """The value, then its interval in small grey type; the title attribute gives n."""
    text = cell_text(mv)
    if mv is None or mv.value is None or " [" not in text:
        return _esc(text)
    value, interval = text.split(" [", 1)
    return f'<span title="n = {mv.n}">{_esc(value)}</span> <span class="ci">[{_esc(interval)}</span>'



def receipts_html(label: str, receipts: list[dict[str, Any]]) -> str:
    """Deletion receipts rendered generically: one column per key seen."""
    keys: list[str] = []
    for r in receipts:
        for k in r:
            if k not in keys:
                keys.append(k)
    head = "".join(f"<th>{_esc(k)}</th>" for k in keys)
    rows = []
    for r in receipts:
        cells = []
        for k in keys:
            v = r.get(k, "")
            text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
            cells.append(f"<td>{_esc(text[:300])}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f"<h3>Deletion receipts — {_esc(label)} ({len(receipts)})</h3>"
        f'<table class="metrics receipts"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def render_page(
    *,
    title: str,
    subtitle: str,
    tables: Sequence[Table],
    plots: dict[str, bytes],
    runs_data: list[dict[str, Any]],
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
        f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}"></figure>'
        for name, png in plots.items()
    )
    data_json = json.dumps({"runs": runs_data}, ensure_ascii=False, separators=(",", ":"))
    # no "<" survives inside the script block: "</script>", "<!--" and "<script" cannot end or
    # re-open it; JSON.parse reads the \u escapes back as the same characters
    data_json = data_json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    suites = "".join(f'<option value="{s}">{s}</option>' for s in ("retention", "efficacy", "preservation", "relearning", "attack"))
    receipts_block = "".join(receipts_html(label, r) for label, r in receipts if r)
    notes_html = "".join(f'<p class="note">{_esc(n)}</p>' for n in notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_esc(title)}</title><style>{CSS}</style></head>
<body data-ready="false">
<h1>{_esc(title)}</h1><p class="meta">{_esc(subtitle)}</p>{notes_html}
<h2>Tables</h2>
{''.join(table_html(t) for t in tables)}
<h2>Plots</h2>
{plots_html}
<h2>Questions</h2>
<div class="controls">
<label>Run <select id="run-select"></select></label>
<label>Instance <select id="instance-select"></select></label>
<label>Suite <select id="suite-select"><option value="">all suites</option>{suites}</select></label>
<label>Verdict <select id="verdict-select"><option value="">all verdicts</option><option value="correct">correct</option><option value="wrong">wrong</option><option value="unscored">unscored</option></select></label>
<label>Search <input id="search" type="search" placeholder="question or answer text"></label>
<span id="item-count" class="note"></span>
</div>
<div id="detail" aria-live="polite"></div>
<table id="items"><thead><tr><th>Instance</th><th>Question</th><th>Suite</th><th>Frame</th><th>Request</th><th>Text</th><th>Verdict</th><th>Counts</th></tr></thead><tbody></tbody></table>
{('<h2>Deletion receipts</h2>' + receipts_block) if receipts_block else ''}
<script type="application/json" id="bemula-data">{data_json}</script>
<script>{JS}</script>
</body></html>
"""
