/* A rally's page, live (bot/web/live.py): listen to the rally's events and, when its version is
   not the one shown, fetch the same page again and swap the part that follows the play
   (#live: board, standing, turn log). No inline script, no eval; without this file the page is
   the same after a refresh. */
(function () {
  "use strict";
  var root = document.getElementById("live");
  var address = root && root.getAttribute("data-live");
  if (!address || !window.EventSource || !window.fetch || !window.DOMParser) {
    return;
  }
  var busy = false;
  var again = false;

  function swap(text) {
    var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("live");
    if (!fresh) {
      return;
    }
    var nodes = Array.prototype.map.call(fresh.childNodes, function (node) {
      return document.importNode(node, true);
    });
    root.replaceChildren.apply(root, nodes);
    root.setAttribute("data-version", fresh.getAttribute("data-version") || "");
  }

  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (text) { if (text) { swap(text); } })
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }

  var source = new EventSource(address);
  source.addEventListener("version", function (event) {
    var data = JSON.parse(event.data);
    if (data.version !== root.getAttribute("data-version")) {
      refresh();
    }
  });
  source.addEventListener("end", function () {
    source.close();
    refresh();
  });
}());
