(function () {
  var table = document.getElementById("examples");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var pageSize = Number(table.dataset.pageSize);
  var page = 0;
  var filter = document.getElementById("filter");
  var labelMenu = document.getElementById("label-filter");
  var info = document.getElementById("page-info");
  var previous = document.getElementById("page-previous");
  var next = document.getElementById("page-next");
  function matching() {
    var query = filter.value.trim().toLowerCase();
    var label = labelMenu ? labelMenu.value : "";
    return rows.filter(function (row) {
      if (label !== "" && row.dataset.label !== label) { return false; }
      if (!query) { return true; }
      if (row.searchText === undefined) { row.searchText = row.textContent.toLowerCase(); }
      return row.searchText.indexOf(query) >= 0;
    });
  }
  function render() {
    var shown = matching();
    var pages = Math.max(1, Math.ceil(shown.length / pageSize));
    page = Math.max(0, Math.min(page, pages - 1));
    var visible = new Set(shown.slice(page * pageSize, (page + 1) * pageSize));
    rows.forEach(function (row) { row.hidden = !visible.has(row); });
    info.textContent = "page " + (page + 1) + " of " + pages + " (" + shown.length + " of " + rows.length
      + " examples match)";
    previous.disabled = page === 0;
    next.disabled = page >= pages - 1;
  }
  filter.addEventListener("input", function () { page = 0; render(); });
  if (labelMenu) { labelMenu.addEventListener("change", function () { page = 0; render(); }); }
  previous.addEventListener("click", function () { page -= 1; render(); });
  next.addEventListener("click", function () { page += 1; render(); });
  var headers = table.querySelectorAll("th[data-col]");
  headers.forEach(function (header) {
    header.addEventListener("click", function () {
      var col = Number(header.dataset.col);
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var value = function (row) {
        var text = row.cells[col].dataset.value;
        return text === "" ? NaN : Number(text);
      };
      rows.sort(function (a, b) {
        var x = value(a), y = value(b);
        if (isNaN(x) || isNaN(y)) { return isNaN(x) - isNaN(y); }  /* undefined last */
        return ascending ? x - y : y - x;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      page = 0;
      render();
    });
  });
  render();
})();
