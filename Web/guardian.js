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
    var form = document.querySelector('form[data-form="sign-in"]');
    if (!form) return;
    var field = form.querySelector('input[name="pin"]');
    // The pad types: the field takes no focus keyboard, so a touch screen shows no on-screen
    // keyboard over the pad. A real keyboard still types digits, Backspace and Enter.
    field.readOnly = true;
    field.setAttribute('inputmode', 'none');
    document.addEventListener('keydown', function (e) {
      if (/^[0-9]$/.test(e.key)) {
        if (field.value.length < 12) field.value += e.key;
        e.preventDefault();
      } else if (e.key === 'Backspace') {
        field.value = field.value.slice(0, -1);
        e.preventDefault();
      } else if (e.key === 'Enter') {
        e.preventDefault();
        if (form.requestSubmit) form.requestSubmit(); else form.submit();
      }
    });
    form.addEventListener('click', function (e) {
      var button = e.target.closest('button');
      if (!button || !form.contains(button)) return;
      if (button.hasAttribute('data-digit')) {
        if (field.value.length < 12) field.value += button.getAttribute('data-digit');
        field.focus();
      } else if (button.getAttribute('data-pad') === 'clear') {
        field.value = '';
        field.focus();
      }
    });
    field.focus();
  }

  function encode(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { params.append(key, value); });
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
          body: encode(form),
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

  document.addEventListener('DOMContentLoaded', function () {
    kioskIdle();
    pinPad();
    playButtons();
    dragToReorder();
  });
})();
