/* kb site: the language switch keeps the anchor the reader is at; a rule's old anchor on its
   chapter page leads to the rule's own page. No external request. */
(function () {
  "use strict";
  /* Chapter pages once held their rules (701.html#701.54a): a saved link of that shape goes on to
     the rule's page (701.54.html#701.54a); without JavaScript the rule's row is the target. */
  var table = document.querySelector("table[data-rule-table]");
  var wanted = /^#(\d{3}\.\d{1,3})([a-z])?$/.exec(location.hash);
  if (table && wanted) {
    var row = document.getElementById(wanted[1]);
    var link = row && row.querySelector("a[href]");
    if (link) {
      location.replace(link.href.split("#")[0] + (wanted[2] ? "#" + wanted[0].slice(1) : ""));
      return;
    }
  }
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
