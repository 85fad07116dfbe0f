/*
 * Steppie: the child picker. One big button per child (GET /api/children); each opens
 * /child/<id>. With one child the service redirects there itself; the page does the same
 * in case it was opened directly. No words of its own: each child's picture and name.
 */
(function () {
  'use strict';

  var TONES = ['sky', 'mint', 'lemon', 'peach', 'lavender', 'rose'];
  var list = document.getElementById('picker-list');
  var wait = document.getElementById('picker-wait');
  var delay = 1000;

  function show(children) {
    if (children.length === 1) {
      location.replace('/child/' + encodeURIComponent(children[0].id));
      return;
    }
    list.textContent = '';
    var locales = {};
    children.forEach(function (child, index) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.className = 'picker-child';
      a.href = '/child/' + encodeURIComponent(child.id);
      a.setAttribute('data-color', TONES[index % TONES.length]);
      if (child.locale) { a.lang = child.locale; locales[child.locale] = true; }
      a.setAttribute('aria-label', child.name || '');
      // The child's picture (a builtin icon or a guardian's photo); the name says who it is.
      var picture = document.createElement('span');
      picture.className = 'picker-picture';
      picture.setAttribute('aria-hidden', 'true');
      var img = document.createElement('img');
      img.alt = '';
      img.setAttribute('data-picture', pictureType(child.picture));
      img.src = pictureURL(child.picture);
      if (pictureType(child.picture) === 'photo') img.className = 'photo';
      picture.appendChild(img);
      var name = document.createElement('span');
      name.className = 'picker-name';
      name.textContent = child.name || '';
      a.appendChild(picture);
      a.appendChild(name);
      li.appendChild(a);
      list.appendChild(li);
    });
    var only = Object.keys(locales);
    if (only.length === 1) document.documentElement.lang = only[0];
    wait.hidden = children.length > 0;
    list.hidden = children.length === 0;
    if (children.length > 0) document.documentElement.setAttribute('data-screen', 'picker');
    var first = list.querySelector('a');
    if (first) first.focus({ preventScroll: true });
  }

  function pictureType(p) { return p && p.type === 'photo' && p.url ? 'photo' : 'builtin'; }

  // Only the service's own paths: a photo under /photos/, else a builtin icon by its plain name.
  function pictureURL(p) {
    if (p && p.type === 'photo' && typeof p.url === 'string' && /^\/photos\/[A-Za-z0-9._-]+$/.test(p.url)) return p.url;
    var name = p && typeof p.name === 'string' && /^[a-z0-9-]+$/.test(p.name) ? p.name : 'star';
    return '/icons/' + name + '.svg';
  }

  function load() {
    fetch('/api/children', { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (children) {
        delay = 1000;
        show(Array.isArray(children) ? children : []);
        if (!Array.isArray(children) || children.length === 0) firstRunOrRetry();
      })
      .catch(retry);
  }

  // No child yet: a new device (no PIN, no child) starts the first run on this screen; a device
  // with a PIN and no child goes to the guardian's PIN pad, where a child is added. Without the
  // guardian pages (or while the service starts) it keeps the calm waiting dot.
  function firstRunOrRetry() {
    fetch('/guardian/setup/available', { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (reply) {
        if (reply && reply.available === true) location.replace('/guardian/setup');
        else if (reply && reply.available === false) location.replace('/guardian/');
        else retry();
      })
      .catch(retry);
  }

  // The service may still be starting: keep the calm waiting dot and ask again.
  function retry() {
    window.setTimeout(load, delay);
    delay = Math.min(delay * 2, 8000);
  }

  document.addEventListener('contextmenu', function (event) { event.preventDefault(); });
  load();
}());
