/*
 * Steppie guardian pages: small helpers on top of plain HTML forms that work without this file.
 * - the PIN pad types into the one PIN field;
 * - "play on the device" buttons post without leaving the page;
 * - routines can be dragged into a new order (the up/down buttons do the same by keyboard);
 * - on the kiosk, a page left alone goes back to the child's page (signed in: through
 *   "Child screen", which ends the session).
 * No words in here: every text comes from the service in the page's language.
 */
(function () {
  'use strict';

  function pinPad() {
    // The sign-in form (one field) or the first run's PIN form (the PIN, then the same again).
    var form = document.querySelector('form[data-form="sign-in"], form[data-pad-form]');
    if (!form) return;
    var fields = Array.prototype.slice.call(form.querySelectorAll('input[data-pad-field]'));
    if (fields.length === 0) fields = [form.querySelector('input[name="pin"]')];
    var active = 0;
    function mark() {
      fields.forEach(function (f, i) { f.classList.toggle('active', i === active); });
    }
    function limit(f) { return parseInt(f.getAttribute('maxlength') || '12', 10); }
    function type(digit) {
      var f = fields[active];
      if (f.value.length < limit(f)) f.value += digit;
      if (f.value.length >= limit(f) && active < fields.length - 1) active += 1;
      mark();
    }
    function enter() {
      if (active < fields.length - 1 && fields[active].value.length > 0) { active += 1; mark(); return; }
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
    // The pad types: the fields take no keyboard focus, so a touch screen shows no on-screen
    // keyboard over the pad. A real keyboard still types digits, Backspace and Enter.
    fields.forEach(function (f, i) {
      f.readOnly = true;
      f.setAttribute('inputmode', 'none');
      f.addEventListener('click', function () { active = i; mark(); });
    });
    document.addEventListener('keydown', function (e) {
      if (/^[0-9]$/.test(e.key)) {
        type(e.key);
        e.preventDefault();
      } else if (e.key === 'Backspace') {
        fields[active].value = fields[active].value.slice(0, -1);
        e.preventDefault();
      } else if (e.key === 'Enter') {
        e.preventDefault();
        enter();
      }
    });
    form.addEventListener('click', function (e) {
      var button = e.target.closest('button');
      if (!button || !form.contains(button)) return;
      if (button.hasAttribute('data-digit')) {
        type(button.getAttribute('data-digit'));
      } else if (button.getAttribute('data-pad') === 'clear') {
        fields.forEach(function (f) { f.value = ''; });
        active = 0;
        mark();
      } else if (button.getAttribute('data-pad') === 'enter' && active < fields.length - 1 && fields[active].value.length > 0
                 && fields[fields.length - 1].value.length === 0) {
        e.preventDefault();
        enter();
      }
    });
    mark();
  }

  function encode(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { params.append(key, value); });
    return params;
  }

  // A ▶ plays what the feedback form shows now, saved or not: its fields go along (the button's
  // own event and intensity win), marked so the service reads them.
  function withProfileForm(form) {
    var profile = document.querySelector('form[data-form="feedback"]');
    if (!profile) return encode(form);
    var values = {};
    var order = [];
    function put(key, value) { if (!(key in values)) order.push(key); values[key] = value; }
    new FormData(profile).forEach(function (value, key) { put(key, value); });
    new FormData(form).forEach(function (value, key) { put(key, value); });
    put('preview', 'form');
    var params = new URLSearchParams();
    order.forEach(function (key) { params.append(key, values[key]); });
    return params;
  }

  function playButtons() {
    var status = document.querySelector('.play-status');
    document.querySelectorAll('form[data-form="play"]').forEach(function (form) {
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        fetch(form.action, {
          method: 'POST',
          headers: { 'Accept': 'application/json' },
          body: withProfileForm(form),
          credentials: 'same-origin'
        }).then(function (r) { return r.json(); }).then(function (reply) {
          if (status) status.textContent = reply.message || '';
        }).catch(function () {
          form.submit();
        });
      });
    });
  }

  function dragToReorder() {
    var list = document.querySelector('ol[data-list="routines"]');
    if (!list) return;
    var dragged = null;
    list.addEventListener('dragstart', function (e) {
      dragged = e.target.closest('li');
      if (!dragged) return;
      dragged.classList.add('dragging');
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', dragged.getAttribute('data-routine-id'));
    });
    list.addEventListener('dragover', function (e) {
      if (!dragged) return;
      e.preventDefault();
      var over = e.target.closest('li');
      if (!over || over === dragged) return;
      var box = over.getBoundingClientRect();
      var after = e.clientY > box.top + box.height / 2;
      list.insertBefore(dragged, after ? over.nextSibling : over);
    });
    list.addEventListener('dragend', function () {
      if (!dragged) return;
      dragged.classList.remove('dragging');
      dragged = null;
      var order = Array.prototype.map.call(list.querySelectorAll('li[data-routine-id]'), function (li) {
        return li.getAttribute('data-routine-id');
      });
      var body = new URLSearchParams();
      body.append('csrf', list.getAttribute('data-csrf'));
      body.append('order', order.join(','));
      fetch('/guardian/set/' + list.getAttribute('data-set-id') + '/reorder', {
        method: 'POST',
        headers: { 'Accept': 'application/json' },
        body: body,
        credentials: 'same-origin'
      }).then(function () { window.location.reload(); });
    });
  }

  function kioskIdle() {
    var home = document.body.getAttribute('data-kiosk-home');
    var seconds = parseInt(document.body.getAttribute('data-idle-seconds') || '', 10);
    if (!home || !(seconds > 0)) return;
    var timer = null;
    function leave() {
      var childScreen = document.querySelector('form.leave');
      if (childScreen) childScreen.submit(); else window.location.href = home;
    }
    function restart() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(leave, seconds * 1000);
    }
    ['pointerdown', 'keydown', 'input', 'wheel'].forEach(function (name) {
      document.addEventListener(name, restart, { passive: true, capture: true });
    });
    restart();
  }

  // The printable pages' Print button: the browser's own print window (the page's paper is
  // already the stylesheet's @page size).
  function printButtons() {
    document.querySelectorAll('button[data-print]').forEach(function (button) {
      button.addEventListener('click', function () { window.print(); });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    kioskIdle();
    printButtons();
    pinPad();
    playButtons();
    dragToReorder();
  });
})();
