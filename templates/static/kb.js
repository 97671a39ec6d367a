/* kb site: the language switch keeps the anchor the reader is at. No external request. */
(function () {
  "use strict";
  document.querySelectorAll(".lang-switch a").forEach(function (link) {
    link.addEventListener("click", function () {
      if (location.hash && link.getAttribute("href").indexOf("#") < 0) {
        link.setAttribute("href", link.getAttribute("href") + location.hash);
      }
    });
  });
})();
