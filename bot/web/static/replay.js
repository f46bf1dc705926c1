/* A replay's slider (bot/web/templates/replay.html): moving it goes to that turn at once, as its
   form's button does without this file. No inline script, no eval. */
(function () {
  "use strict";
  var slider = document.getElementById("turn");
  if (!slider || !slider.form) {
    return;
  }
  slider.addEventListener("change", function () {
    slider.form.submit();
  });
}());
