// chordgo HTML report: sort the index's tables by a column, filter their
// rows by package and text. It only reorders and hides rows the page
// already has; it never turns text into markup.
'use strict';

(function () {
  var tables = Array.prototype.slice.call(document.querySelectorAll('table.sortable'));
  tables.forEach(function (table) {
    var body = table.tBodies[0];
    Array.prototype.forEach.call(body.rows, function (row, i) { row.dataset.order = i; });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = 'sort by this column';
      var sort = function () { sortBy(table, th, col); };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); } });
    });
  });

  function sortBy(table, th, col) {
    var numeric = th.dataset.type === 'num';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var key = function (row) {
      var text = row.cells[col].textContent.trim();
      return numeric ? Number(text) : text.toLowerCase();
    };
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      var c = numeric ? x - y : (x < y ? -1 : x > y ? 1 : 0);
      return dir * c || a.dataset.order - b.dataset.order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  var pkg = document.getElementById('pkg');
  var query = document.getElementById('q');
  if (!pkg || !query) {
    return;
  }
  function filter() {
    var want = pkg.value;
    var text = query.value.trim().toLowerCase();
    tables.forEach(function (table) {
      var shown = 0;
      var rows = table.tBodies[0].rows;
      Array.prototype.forEach.call(rows, function (row) {
        var pkgs = (row.dataset.pkgs || '').split(' ');
        var ok = (want === '' || pkgs.indexOf(want) >= 0) && (text === '' || row.textContent.toLowerCase().indexOf(text) >= 0);
        row.hidden = !ok;
        if (ok) {
          shown++;
        }
      });
      var count = document.querySelector('.shown[data-table="' + table.id + '"]');
      if (count) {
        count.textContent = shown + ' of ' + rows.length;
      }
    });
  }
  pkg.addEventListener('change', filter);
  query.addEventListener('input', filter);
  document.getElementById('filters').addEventListener('submit', function (e) { e.preventDefault(); });
})();
