/* memsim report: sortable columns and a filter box, plain JavaScript.
 * When the page is set up it marks <body data-report-ready="ROWS">; a script
 * error marks data-report-error (the suite's headless-browser test reads both). */
(function () {
  'use strict';
  window.addEventListener('error', function (e) {
    document.body.setAttribute('data-report-error', String(e.message || e));
  });
  var table = document.getElementById('results');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById('filter');
  var notable = document.getElementById('only-notable');
  var shown = document.getElementById('shown');

  function key(row, col) {
    var cell = row.cells[col];
    var k = cell ? cell.getAttribute('data-key') : null;
    if (k === null) k = cell ? cell.textContent : '';
    var n = Number(k);
    return k !== '' && !isNaN(n) ? n : String(k).toLowerCase();
  }

  function sortBy(th) {
    var col = th.cellIndex;
    var desc = th.classList.contains('sorted-asc');
    Array.prototype.forEach.call(th.parentNode.cells, function (c) {
      c.classList.remove('sorted-asc', 'sorted-desc');
    });
    th.classList.add(desc ? 'sorted-desc' : 'sorted-asc');
    var keyed = rows.map(function (r, i) { return { r: r, k: key(r, col), i: i }; });
    keyed.sort(function (a, b) {
      var x = a.k, y = b.k, c;
      if (typeof x === typeof y) c = x < y ? -1 : x > y ? 1 : 0;
      else c = typeof x === 'number' ? -1 : 1;
      if (desc) c = -c;
      return c || a.i - b.i;
    });
    keyed.forEach(function (e) { body.appendChild(e.r); });
  }

  function applyFilter() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var only = notable.checked, n = 0;
    rows.forEach(function (r) {
      var text = r.getAttribute('data-text') || (r.textContent + ' ' + (r.getAttribute('data-tags') || '')).toLowerCase();
      r.setAttribute('data-text', text);
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      if (only && r.getAttribute('data-notable') !== '1') ok = false;
      r.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' tests shown';
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    th.addEventListener('click', function () { sortBy(th); });
    th.title = th.title || 'click to sort';
  });
  filter.addEventListener('input', applyFilter);
  notable.addEventListener('change', applyFilter);
  var q = /[?#&]filter=([^&]*)/.exec(location.hash + location.search);
  if (q) filter.value = decodeURIComponent(q[1]);
  if (/[?#&]notable=1/.test(location.hash + location.search)) notable.checked = true;
  applyFilter();
  /* Milliseconds from navigation to a usable page (bench/report.sh reads it). */
  document.body.setAttribute('data-report-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-report-ready', String(rows.length));
})();
