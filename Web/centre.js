// The centre hub's staff pages (docs/centre.md): the overview fills its cells from
// /staff/overview.json every second, so a press on a device shows within about a second.
// Without this script the page reloads itself (a <noscript> meta refresh).
(function () {
  'use strict';
  var table = document.querySelector('[data-overview]');
  if (!table) { return; }
  var url = table.getAttribute('data-poll');
  var every = parseInt(table.getAttribute('data-poll-ms'), 10) || 1000;
  var busy = false;

  function setText(el, text) { if (el && el.textContent !== text) { el.textContent = text; } }

  function apply(model) {
    var seen = {};
    model.children.forEach(function (child) {
      seen[child.id] = true;
      var row = table.querySelector('tr[data-child-id="' + CSS.escape(child.id) + '"]');
      if (!row) { window.location.reload(); return; }   // a child joined the group: the server draws it
      setText(row.querySelector('[data-cell="current"]'), child.current);
      var progress = row.querySelector('[data-cell="progress"]');
      setText(progress, child.progress);
      progress.setAttribute('data-done', String(child.done));
      progress.setAttribute('data-total', String(child.total));
      setText(row.querySelector('[data-cell="last-press"]'), child.lastPress);
    });
    model.devices.forEach(function (device) {
      var item = document.querySelector('[data-devices] li[data-device-id="' + CSS.escape(device.id) + '"]');
      if (!item) { return; }
      item.setAttribute('data-silent', device.silent ? 'true' : 'false');
      setText(item.querySelector('[data-cell="status"]'), device.status);
    });
    document.documentElement.setAttribute('data-updated', String(Date.now()));
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    fetch(url, { credentials: 'same-origin', headers: { 'Accept': 'application/json' }, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 401) { window.location.assign('/staff/sign-in'); return null; }
        return response.ok ? response.json() : null;
      })
      .then(function (model) { if (model) { apply(model); } })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, every);
  poll();
})();
