/*
 * Steppie: the child's kiosk page.
 *
 * The page only shows what the service says (GET /api/child/<id>/state and the Server-Sent Events
 * stream /api/child/<id>/events) and sends the child's three actions (done, undo, next) as POSTs.
 * It never claims a success the service did not report, never plays audio, and never hard-codes
 * words: every text comes from state.labels and the item titles.
 */
(function () {
  'use strict';

  var RING = 2 * Math.PI * 44; // the undo ring's circumference (r = 44 in a 100 x 100 box)
  var CONFETTI_TONES = ['sky', 'mint', 'lemon', 'peach', 'lavender', 'rose'];

  var root = document.documentElement;
  var parts = location.pathname.split('/').filter(Boolean);
  var childId = parts[0] === 'child' && parts[1] ? decodeURIComponent(parts[1]) : '';
  var api = '/api/child/' + encodeURIComponent(childId);
  var reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

  function $(id) { return document.getElementById(id); }
  var el = {
    stage: $('stage'),
    progressText: $('progress-text'),
    dots: $('dots'),
    connection: $('connection'),
    connectionText: $('connection-text'),
    notice: $('notice'),
    noticeText: $('notice-text'),
    childName: $('child-name'),
    switchChild: $('switch-child'),
    switchChildText: $('switch-child-text'),
    card: $('card'),
    cardIcon: $('card-icon'),
    cardTitle: $('card-title'),
    cardPill: $('card-pill'),
    cardPillText: $('card-pill-text'),
    cardHint: $('card-hint'),
    message: $('message'),
    messageIcon: $('message-icon'),
    messageText: $('message-text'),
    controls: $('controls'),
    undo: $('undo'),
    undoText: $('undo-text'),
    ringBar: $('ring-bar'),
    next: $('next'),
    nextText: $('next-text'),
    order: $('order'),
    orderTitle: $('order-title'),
    orderList: $('order-list'),
    live: $('live'),
    confetti: $('confetti')
  };

  var state = null;          // the last state shown
  var connected = false;     // the event stream delivered a state and has not failed since
  var everConnected = false;
  var acceptAnyVersion = true; // after a (re)connect the next state replaces everything
  var inFlight = false;      // one POST at a time, like the engine: presses during a save do nothing
  var queued = null;         // at most one tap made while disconnected: {action, tapAt, version}
  var source = null;
  var reopenTimer = 0;
  var reopenDelay = 1000;
  var streaming = false;     // the event stream is open and delivering
  var polling = false;       // reading the state while the stream is refused
  var pollRun = 0;
  var pollTimer = 0;
  var cardKey = '';
  var listKey = '';
  var ring = { deadline: 0, total: 1, frame: 0 };

  // ------------------------------------------------------------------ small helpers

  function label(name) {
    var labels = (state && state.labels) || {};
    return typeof labels[name] === 'string' ? labels[name] : '';
  }

  function fill(template, values) {
    return String(template || '').replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function safeUrl(url) {
    // Only same-origin paths: the page fetches nothing from outside.
    return typeof url === 'string' && url.charAt(0) === '/' && url.charAt(1) !== '/' ? url : '';
  }

  function iconImage(icon, decorative) {
    var img = document.createElement('img');
    var src = '';
    if (icon && icon.type === 'photo') {
      src = safeUrl(icon.url);
      img.className = 'is-photo';
    } else if (icon && icon.name) {
      src = '/icons/' + encodeURIComponent(icon.name) + '.svg';
    }
    img.alt = decorative ? '' : ((icon && icon.label) || '');
    img.draggable = false;
    img.decoding = 'async';
    img.addEventListener('error', function () {
      var shape = document.createElement('span');
      shape.className = 'icon-fallback';
      shape.setAttribute('aria-hidden', 'true');
      if (img.parentNode) img.parentNode.replaceChild(shape, img);
    });
    if (src) img.src = src; else img.dispatchEvent(new Event('error'));
    return img;
  }

  function setColor(node, color) {
    if (CONFETTI_TONES.indexOf(color) >= 0) node.setAttribute('data-color', color);
    else node.setAttribute('data-color', 'sky');
  }

  function announce(text) {
    if (!text) return;
    el.live.textContent = '';
    window.setTimeout(function () { el.live.textContent = text; }, 50);
  }

  // ------------------------------------------------------------------ rendering

  function render(next, previous) {
    var items = Array.isArray(next.items) ? next.items : [];
    var screen = next.screen;
    var child = next.child || {};

    if (child.locale) root.lang = child.locale;
    setText(el.childName, child.name || '');
    if (child.name && document.title !== child.name) document.title = child.name;
    root.setAttribute('data-screen', screen);
    root.setAttribute('data-intensity', next.intensity || 'normal');

    renderProgress(next, items);
    renderFocus(next, screen);
    renderControls(next, screen);
    renderOrder(next, items, screen);
    renderNotice(next, previous);
    renderSwitch(next);
    if (!connected) setText(el.connectionText, label('reconnecting'));

    maybeCelebrate(next, previous);
    keepFocusUsable();
  }

  // "Switch child": only when a guardian allowed siblings to switch (and there is a sibling); it
  // goes back to the picker and nowhere else: no PIN, never a guardian page.
  function renderSwitch(next) {
    var allowed = next.siblingSwitch === true;
    el.switchChild.hidden = !allowed;
    if (allowed) setText(el.switchChildText, label('switchChild'));
  }

  // A tap the service could not save (a full disk): said gently, as the terminal says it, until
  // the next tap; never a success the service did not report.
  function renderNotice(next, previous) {
    var notice = next.notice === 'saveFailed' || next.notice === 'undoFailed' ? next.notice : '';
    if (notice) {
      root.setAttribute('data-notice', notice);
      setText(el.noticeText, label('notSaved'));
      el.notice.hidden = false;
      if (!previous || previous.notice !== next.notice) announce(label('notSaved'));
    } else {
      root.removeAttribute('data-notice');
      el.notice.hidden = true;
    }
  }

  function renderProgress(next, items) {
    var p = next.progress || { completed: 0, total: items.length };
    var text = fill(label('progress') || '{completed} / {total}', { completed: p.completed, total: p.total });
    setText(el.progressText, text);
    el.progressText.parentNode.hidden = !p.total;

    var key = items.map(function (it) { return (it.done ? 'd' : it.current ? 'c' : 'u') + (it.color || ''); }).join(',');
    if (el.dots.getAttribute('data-key') === key) return;
    el.dots.setAttribute('data-key', key);
    el.dots.textContent = '';
    items.forEach(function (it) {
      var dot = document.createElement('span');
      dot.className = 'dot' + (it.done ? ' is-done' : '') + (it.current ? ' is-current' : '');
      setColor(dot, it.color);
      el.dots.appendChild(dot);
    });
  }

  function renderFocus(next, screen) {
    var focus = next.focus;
    var showCard = (screen === 'current' || screen === 'undo') && focus;
    el.card.hidden = !showCard;
    el.message.hidden = !!showCard;

    if (showCard) {
      var key = [focus.id, focus.title, focus.color, JSON.stringify(focus.icon || null)].join('|');
      if (key !== cardKey) {
        cardKey = key;
        setColor(el.card, focus.color);
        el.cardIcon.textContent = '';
        el.cardIcon.appendChild(iconImage(focus.icon, false));
        setText(el.cardTitle, focus.title || '');
      }
      setText(el.cardPillText, label('done'));
      el.cardPill.hidden = !label('done');
      setText(el.cardHint, label('doneHint'));
      el.card.setAttribute('aria-label', [focus.title, label('done')].filter(Boolean).join(', '));
      if (label('doneHint')) el.card.setAttribute('aria-describedby', 'card-hint');
      else el.card.removeAttribute('aria-describedby');
      // Only the current card in the current screen can be completed; it stays focusable so a
      // switch user's second press in the undo window lands on it and does nothing.
      el.card.setAttribute('aria-disabled', screen === 'current' ? 'false' : 'true');
      el.card.classList.toggle('is-checked', screen === 'undo' && next.intensity !== 'off');
      if (screen !== 'undo') el.card.classList.remove('pop');
      return;
    }

    cardKey = '';
    var icon = 'home';
    var color = 'sky';
    var text = label('empty');
    if (screen === 'allDone') { icon = 'star'; color = 'lemon'; text = label('allDone'); }
    else if (screen === 'waiting') {
      icon = 'clock'; color = 'lavender';
      text = fill(label('waiting'), { time: next.waitingUntil || '' });
    }
    var messageKey = screen + '|' + text;
    if (el.message.getAttribute('data-key') !== messageKey) {
      el.message.setAttribute('data-key', messageKey);
      setColor(el.message, color);
      el.messageIcon.textContent = '';
      el.messageIcon.appendChild(iconImage({ type: 'builtin', name: icon }, true));
      setText(el.messageText, text);
    }
    el.message.classList.toggle('is-checked', screen === 'allDone' && next.intensity !== 'off');
    if (screen !== 'allDone') el.message.classList.remove('pop');
  }

  function renderControls(next, screen) {
    var undoOpen = !!next.undo && (screen === 'undo' || screen === 'allDone');
    var nextOpen = !!next.undo && screen === 'undo';
    el.undo.hidden = !undoOpen;
    el.next.hidden = !nextOpen;
    el.controls.hidden = !(undoOpen || nextOpen);

    var title = next.focus && next.focus.title;
    setText(el.undoText, label('undo'));
    setText(el.nextText, label('next'));
    el.undo.setAttribute('aria-label', [label('undo'), title].filter(Boolean).join(': '));
    el.next.setAttribute('aria-label', label('next'));

    if (undoOpen) {
      var left = Math.max(0, Number(next.undo.secondsLeft) || 0);
      var total = Math.max(0.1, Number(next.undo.totalSeconds) || left || 1);
      ring.deadline = performance.now() + left * 1000;
      ring.total = total * 1000;
      if (!ring.frame) ring.frame = requestAnimationFrame(drawRing);
    } else if (ring.frame) {
      cancelAnimationFrame(ring.frame);
      ring.frame = 0;
    }
  }

  function drawRing(now) {
    ring.frame = 0;
    if (el.undo.hidden) return;
    var remaining = Math.max(0, ring.deadline - now);
    if (reducedMotion.matches) remaining = Math.ceil(remaining / 1000) * 1000; // whole seconds, no glide
    var fraction = Math.min(1, remaining / ring.total);
    el.ringBar.style.strokeDashoffset = String(RING * (1 - fraction));
    el.ringBar.style.opacity = fraction > 0 ? '1' : '0';
    if (remaining > 0) ring.frame = requestAnimationFrame(drawRing);
  }

  function renderOrder(next, items, screen) {
    var show = items.length > 0 && screen !== 'empty';
    el.order.hidden = !show;
    el.stage.classList.toggle('no-order', !show);
    setText(el.orderTitle, label('list'));
    if (!show) return;

    var key = JSON.stringify(items.map(function (it) {
      return [it.id, it.title, it.color, it.done, it.current, it.icon];
    }));
    if (key !== listKey) {
      listKey = key;
      el.orderList.textContent = '';
      items.forEach(function (it) {
        var li = document.createElement('li');
        li.className = 'step' + (it.done ? ' is-done' : '') + (it.current ? ' is-current' : '');
        li.setAttribute('data-id', it.id);
        setColor(li, it.color);
        if (it.current) li.setAttribute('aria-current', 'step');

        var icon = document.createElement('span');
        icon.className = 'step-icon';
        icon.appendChild(iconImage(it.icon, true));
        var title = document.createElement('span');
        title.className = 'step-title';
        title.textContent = it.title || '';
        var mark = document.createElement('span');
        mark.className = 'step-mark';
        mark.setAttribute('aria-hidden', 'true');
        mark.innerHTML = '<svg viewBox="0 0 100 100" focusable="false"><path d="M26 52 L43 68 L74 35" fill="none" stroke="#FFFFFF" stroke-width="13" stroke-linecap="round" stroke-linejoin="round"/></svg>';
        if (it.done && label('done')) {
          var done = document.createElement('span');
          done.className = 'sr-only';
          done.textContent = ', ' + label('done');
          title.appendChild(done);
        }
        li.appendChild(icon);
        li.appendChild(title);
        li.appendChild(mark);
        el.orderList.appendChild(li);
      });
    }
    requestAnimationFrame(keepCurrentInView);
  }

  // The list shows what fits; the current item (or the last one done) is kept in view.
  function keepCurrentInView() {
    var list = el.orderList;
    var target = list.querySelector('.is-current') || last(list.querySelectorAll('.is-done')) || list.firstElementChild;
    if (!target) return;
    var horizontal = getComputedStyle(list).flexDirection === 'row';
    if (horizontal) {
      var maxX = list.scrollWidth - list.clientWidth;
      var x = target.offsetLeft - (list.clientWidth - target.offsetWidth) / 3;
      list.scrollLeft = Math.max(0, Math.min(maxX, x));
    } else {
      var maxY = list.scrollHeight - list.clientHeight;
      var y = target.offsetTop - (list.clientHeight - target.offsetHeight) / 3;
      list.scrollTop = Math.max(0, Math.min(maxY, y));
    }
  }

  function last(nodes) { return nodes.length ? nodes[nodes.length - 1] : null; }

  // A control that disappears (undo and next when the window closes) must not take the keyboard
  // focus with it: hand it to the card, so a switch user's next press lands somewhere useful.
  var lastFocused = null;
  document.addEventListener('focusin', function (event) { lastFocused = event.target; });

  function keepFocusUsable() {
    if (!lastFocused || !lastFocused.closest) return;
    var active = document.activeElement;
    var lost = !active || active === document.body;
    if (!lost || !lastFocused.closest('[hidden]')) return;
    if (!el.card.hidden) el.card.focus({ preventScroll: true });
    else if (!el.undo.hidden) el.undo.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ celebration

  function maybeCelebrate(next, previous) {
    if (!previous || !next.progress || !previous.progress) return;
    var justCompleted = next.progress.completed > previous.progress.completed &&
      (next.screen === 'undo' || next.screen === 'allDone');
    if (!justCompleted) return;
    celebrate(next.intensity || 'normal', next.screen === 'allDone' ? el.message : el.card, next.screen === 'allDone');
  }

  function celebrate(intensity, target, allDone) {
    if (intensity === 'off') return;
    if (reducedMotion.matches) return; // the check is already there, as a plain change of state
    target.classList.remove('pop', 'soft-scale');
    void target.offsetWidth; // restart the animations
    target.classList.add('pop');
    if (intensity === 'quiet') return;
    target.classList.add('soft-scale');
    window.setTimeout(function () { target.classList.remove('soft-scale'); }, 800);
    if (intensity === 'strong') confetti(allDone ? 48 : 28);
  }

  function confetti(count) {
    el.confetti.textContent = '';
    for (var i = 0; i < count; i++) {
      var piece = document.createElement('span');
      piece.className = 'confetti-piece';
      piece.setAttribute('data-color', CONFETTI_TONES[i % CONFETTI_TONES.length]);
      var s = piece.style;
      s.left = (Math.random() * 96 + 2) + 'vw';
      s.setProperty('--size', (2 + Math.random() * 2.5).toFixed(2) + 'vmin');
      s.setProperty('--round', ['50%', '22%', '50% 50% 10% 50%'][i % 3]);
      s.setProperty('--dx', ((Math.random() - 0.5) * 16).toFixed(1) + 'vw');
      s.setProperty('--rot', Math.round((Math.random() - 0.5) * 540) + 'deg');
      s.setProperty('--delay', Math.round(Math.random() * 500) + 'ms');
      s.setProperty('--dur', Math.round(1800 + Math.random() * 900) + 'ms');
      el.confetti.appendChild(piece);
    }
    window.setTimeout(function () { el.confetti.textContent = ''; }, 3600);
  }

  // ------------------------------------------------------------------ state in

  function apply(next, replaceAll) {
    if (!next || typeof next !== 'object' || !next.screen) return;
    if (!replaceAll && state && typeof next.version === 'number' && typeof state.version === 'number' &&
        next.version < state.version) return; // an older answer overtaken by the stream
    var previous = state;
    state = next;
    render(next, replaceAll ? null : previous);
  }

  function setConnected(yes) {
    connected = yes;
    if (yes) {
      root.removeAttribute('data-connection');
      el.connection.hidden = true;
    } else {
      root.setAttribute('data-connection', 'lost');
      setText(el.connectionText, label('reconnecting'));
      el.connection.hidden = false;
      acceptAnyVersion = true;
    }
  }

  // Takes a state from the stream or from a poll: after a (re)connect it replaces everything.
  function accept(next) {
    var wasLost = !connected;
    var replaceAll = acceptAnyVersion && everConnected;
    acceptAnyVersion = false;
    everConnected = true;
    setConnected(true);
    apply(next, replaceAll);
    if (wasLost) flushQueued();
  }

  function stopPolling() {
    polling = false;
    pollRun += 1; // an answer still on its way is dropped
    if (pollTimer) { clearTimeout(pollTimer); pollTimer = 0; }
  }

  // The service answered but refused the stream (its event streams are all taken, 503): the
  // page stays live by reading the state every 2 s and sends taps at once, while the stream is
  // tried again gently. A poll that fails means the service is away: taps wait again.
  function startPolling() {
    if (polling) return;
    polling = true;
    poll(++pollRun);
  }

  function poll(run) {
    pollTimer = 0;
    function current() { return polling && run === pollRun && !streaming; }
    fetch(api + '/state', { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!current()) return;
        if (s) {
          accept(s);
          pollTimer = window.setTimeout(function () { poll(run); }, 2000);
        } else {
          polling = false;
          setConnected(false);
        }
      }, function () {
        if (!current()) return;
        polling = false;
        setConnected(false);
      });
  }

  function openStream() {
    if (reopenTimer) { clearTimeout(reopenTimer); reopenTimer = 0; }
    if (source) source.close();
    streaming = false;
    source = new EventSource(api + '/events');
    source.addEventListener('state', function (event) {
      var next;
      try { next = JSON.parse(event.data); } catch (e) { return; }
      streaming = true;
      stopPolling();
      reopenDelay = 1000;
      accept(next);
    });
    source.addEventListener('error', function () {
      streaming = false;
      // EventSource retries by itself after a network error; an HTTP error closes it for good
      // (the service answering 404/503 while it restarts, or 503 when its streams are all
      // taken), so reopen it ourselves, gently, and meanwhile ask for the state.
      if (source.readyState === EventSource.CLOSED) {
        reopenTimer = window.setTimeout(openStream, reopenDelay);
        reopenDelay = Math.min(reopenDelay * 2, 8000);
        startPolling();
      } else {
        stopPolling();
        setConnected(false);
      }
    });
  }

  // ------------------------------------------------------------------ taps out

  function allowed(action) {
    if (!state) return false;
    if (action === 'done') return state.screen === 'current' && !!state.focus;
    if (action === 'undo') return !!state.undo && (state.screen === 'undo' || state.screen === 'allDone');
    if (action === 'next') return !!state.undo && state.screen === 'undo';
    return false;
  }

  function controlFor(action) {
    return action === 'done' ? el.card : action === 'undo' ? el.undo : el.next;
  }

  function tap(action) {
    if (!allowed(action)) return;
    var t = { action: action, tapAt: new Date().toISOString(), version: state.version };
    if (!connected) {
      if (queued) return; // one waiting tap is enough; a second would be a double press
      queued = t;
      controlFor(action).classList.add('is-pending');
      return;
    }
    if (inFlight) return;
    send(t);
  }

  // A tap being saved: while it is, a tap does nothing (as in the engine); `data-saving` on the root
  // says so to whoever watches the page.
  function setSaving(on) {
    inFlight = on;
    root.toggleAttribute('data-saving', on);
  }

  function send(t) {
    setSaving(true);
    var control = controlFor(t.action);
    fetch(api + '/' + t.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tapAt: t.tapAt, version: t.version }),
      cache: 'no-store',
      credentials: 'same-origin'
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        setSaving(false);
        control.classList.remove('is-pending');
        if (response.ok) { apply(body, false); return; }
        notTaken(control);
        refresh();
      });
    }, function () {
      // The connection went away under the tap: keep it and send it when the service is back.
      setSaving(false);
      if (!queued) { queued = t; control.classList.add('is-pending'); }
      setConnected(false);
    });
  }

  function flushQueued() {
    if (!queued) return;
    var t = queued;
    queued = null;
    controlFor(t.action).classList.remove('is-pending');
    if (inFlight) { notTaken(controlFor(t.action)); return; }
    send(t); // the service decides with the tap's own time and the version it was aimed at
  }

  function notTaken(control) {
    control.classList.remove('is-not-taken');
    void control.offsetWidth;
    control.classList.add('is-not-taken');
    window.setTimeout(function () { control.classList.remove('is-not-taken'); }, 1300);
    announce(label('notTaken'));
  }

  function refresh() {
    return fetch(api + '/state', { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) { if (s) apply(s, false); })
      .catch(function () {});
  }

  // ------------------------------------------------------------------ input

  function onActivate(event) {
    var control = event.target.closest('[data-action]');
    if (!control) return;
    event.preventDefault();
    tap(control.getAttribute('data-action'));
  }

  document.addEventListener('click', onActivate);

  // Switches that type a key: Enter or Space on a control press it (the browser does that);
  // anywhere else Enter/Space mean "done", U undo and N next, as in the terminal screen.
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var onControl = event.target && event.target.closest && event.target.closest('button, a');
    var key = event.key;
    if (key === 'u' || key === 'U') { if (!event.repeat) tap('undo'); event.preventDefault(); return; }
    if (key === 'n' || key === 'N') { if (!event.repeat) tap('next'); event.preventDefault(); return; }
    if (onControl) { if (event.repeat && (key === 'Enter' || key === ' ')) event.preventDefault(); return; }
    if (key === 'Enter' || key === ' ' || key === 'Spacebar') {
      event.preventDefault();
      if (!event.repeat) tap('done');
    }
  });

  // The guardian's way out: a 3-second hold on the child's name (top of the screen) opens the
  // guardian pages' PIN pad. Nothing shows it; a tap or a short press there does nothing.
  (function guardianHold() {
    var target = $('child-name');
    var timer = null;
    if (!target) return;
    function cancel() { if (timer) { window.clearTimeout(timer); timer = null; } }
    target.addEventListener('pointerdown', function () {
      cancel();
      timer = window.setTimeout(function () {
        timer = null;
        // The gate ends any guardian session this browser still has: the hold always asks for the PIN.
        window.location.href = '/guardian/gate?lang=' + encodeURIComponent(document.documentElement.lang || 'ko');
      }, 3000);
    });
    ['pointerup', 'pointercancel', 'pointerleave'].forEach(function (name) { target.addEventListener(name, cancel); });
  }());

  document.addEventListener('contextmenu', function (event) { event.preventDefault(); });
  document.addEventListener('dblclick', function (event) { event.preventDefault(); });
  window.addEventListener('resize', function () { requestAnimationFrame(keepCurrentInView); });

  if (!childId) return;
  refresh();
  openStream();
}());
