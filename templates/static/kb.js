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
  /* Printed, every folded section (rulings, citations) is shown. */
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details:not([open])").forEach(function (details) {
      details.setAttribute("open", "");
      details.dataset.kbPrinted = "1";
    });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-kb-printed]").forEach(function (details) {
      details.removeAttribute("open");
      delete details.dataset.kbPrinted;
    });
  });
})();
