/*
 * Steppie guardian pages: small helpers on top of plain HTML forms that work without this file.
 * - the PIN pad types into the one PIN field;
 * - "play on the device" buttons post without leaving the page;
 * - routines can be dragged into a new order (the up/down buttons do the same by keyboard);
 * - the routine page records its title with the microphone: PCM from the Web Audio API
 *   (an AudioWorklet, else a ScriptProcessor), encoded here as a 16-bit mono WAV and sent on Keep;
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

  // A 16-bit mono PCM WAV of `chunks` (Float32Arrays) at `rate`.
  function wav(chunks, rate) {
    var count = chunks.reduce(function (n, c) { return n + c.length; }, 0);
    var buffer = new ArrayBuffer(44 + count * 2);
    var view = new DataView(buffer);
    function text(at, s) { for (var i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i)); }
    text(0, 'RIFF'); view.setUint32(4, 36 + count * 2, true); text(8, 'WAVE');
    text(12, 'fmt '); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
    view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true);
    text(36, 'data'); view.setUint32(40, count * 2, true);
    var at = 44;
    chunks.forEach(function (c) {
      for (var i = 0; i < c.length; i++) {
        var v = Math.max(-1, Math.min(1, c[i]));
        view.setInt16(at, v < 0 ? v * 0x8000 : v * 0x7fff, true);
        at += 2;
      }
    });
    return new Blob([buffer], { type: 'audio/wav' });
  }

  function recorder() {
    var section = document.querySelector('section[data-recordings]');
    if (!section) return;
    var status = section.querySelector('[data-rec-status]');
    var maxSeconds = parseInt(section.getAttribute('data-max-seconds') || '30', 10);
    function say(name) { status.textContent = section.getAttribute('data-msg-' + name) || ''; }
    var rows = Array.prototype.slice.call(section.querySelectorAll('li[data-recording-locale]'));
    rows.forEach(function (row) {
      var kept = row.querySelector('[data-rec="play-kept"]');
      if (kept) kept.addEventListener('click', function () {
        var audio = row.querySelector('audio[data-audio="kept"]');
        audio.currentTime = 0;
        audio.play();
      });
    });
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say('insecure');
      return;
    }
    var live = null;   // { row, stream, context, chunks, stop }
    function button(row, name) { return row.querySelector('[data-rec="' + name + '"]'); }
    function show(row, names) {
      ['start', 'stop', 'play-take', 'keep', 'redo'].forEach(function (n) { button(row, n).hidden = names.indexOf(n) < 0; });
    }
    function stop() {
      if (!live) return;
      var take = live;
      live = null;
      clearTimeout(take.timer);
      take.stream.getTracks().forEach(function (t) { t.stop(); });
      take.context.close();
      take.row.takeBlob = wav(take.chunks, take.context.sampleRate);
      var audio = take.row.querySelector('audio[data-audio="take"]');
      if (audio.src) URL.revokeObjectURL(audio.src);
      audio.src = URL.createObjectURL(take.row.takeBlob);
      show(take.row, ['play-take', 'keep', 'redo']);
      rows.forEach(function (r) { if (r !== take.row) button(r, 'start').disabled = false; });
      button(take.row, 'play-take').focus();
      say('ready');
    }
    function start(row) {
      if (live) return;
      navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } })
        .then(function (stream) {
          var context = new AudioContext();
          context.resume();
          var source = context.createMediaStreamSource(stream);
          var take = { row: row, stream: stream, context: context, chunks: [] };
          live = take;
          function collect(samples) { if (live === take) take.chunks.push(samples); }
          var wired = context.audioWorklet
            ? context.audioWorklet.addModule('/static/recorder-worklet.js').then(function () {
                var node = new AudioWorkletNode(context, 'steppie-capture');
                node.port.onmessage = function (e) { collect(e.data); };
                source.connect(node);
                // Pulled by the graph through a silent gain: the guardian hears nothing while recording.
                var mute = context.createGain();
                mute.gain.value = 0;
                node.connect(mute);
                mute.connect(context.destination);
              })
            : Promise.reject(new Error('no worklet'));
          return wired.catch(function () {
            // Older browsers: the deprecated ScriptProcessor does the same, on the main thread.
            var processor = context.createScriptProcessor(4096, 1, 1);
            processor.onaudioprocess = function (e) { collect(new Float32Array(e.inputBuffer.getChannelData(0))); };
            source.connect(processor);
            processor.connect(context.destination);
          }).then(function () {
            show(row, ['stop']);
            rows.forEach(function (r) { if (r !== row) button(r, 'start').disabled = true; });
            button(row, 'stop').focus();
            say('recording');
            take.timer = setTimeout(stop, maxSeconds * 1000 - 250);
          });
        })
        .catch(function (e) {
          live = null;
          var name = e && e.name;
          say(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied'
              : name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError' ? 'missing' : 'failed');
        });
    }
    function keep(row) {
      if (!row.takeBlob) return;
      var body = new FormData();
      body.append('csrf', section.getAttribute('data-csrf'));
      body.append('locale', row.getAttribute('data-recording-locale'));
      body.append('audio', row.takeBlob, 'take.wav');
      button(row, 'keep').disabled = true;
      say('saving');
      fetch('/guardian/routine/' + section.getAttribute('data-routine-id') + '/record', {
        method: 'POST', headers: { 'Accept': 'application/json' }, body: body, credentials: 'same-origin'
      }).then(function (r) { return r.json(); }).then(function (reply) {
        if (reply.ok) { window.location.reload(); return; }
        button(row, 'keep').disabled = false;
        status.textContent = reply.error || section.getAttribute('data-msg-failed');
      }).catch(function () {
        button(row, 'keep').disabled = false;
        say('failed');
      });
    }
    rows.forEach(function (row) {
      row.querySelector('[data-rec-controls]').hidden = false;
      show(row, ['start']);
      button(row, 'start').addEventListener('click', function () { start(row); });
      button(row, 'stop').addEventListener('click', stop);
      button(row, 'redo').addEventListener('click', function () { row.takeBlob = null; start(row); });
      button(row, 'keep').addEventListener('click', function () { keep(row); });
      button(row, 'play-take').addEventListener('click', function () {
        var audio = row.querySelector('audio[data-audio="take"]');
        audio.currentTime = 0;
        audio.play();
      });
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
    recorder();
  });
})();
