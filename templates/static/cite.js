/* kb cite page: "#2021-02-05/701.32" -> today's rule, walking the renumberings of each later
   pair of loaded editions (assets/cite-map.js, a classic script: works from file:// too). */
(function () {
  "use strict";
  var map = window.KB_CITE || { editions: [], steps: [], since: {}, added: {}, today: [] };
  var script = document.currentScript;
  var root = new URL("../", script.src);
  var box = document.getElementById("cite-result");
  var form = document.getElementById("cite-form");
  var editionField = document.getElementById("cite-edition");
  var numberField = document.getElementById("cite-number");
  var messages = document.getElementById("cite-messages").dataset;
  var lang = messages.lang || "en";
  var today = {};
  map.today.forEach(function (n) { today[n] = true; });
  var dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" });

  function date(iso) { return dateFormat.format(new Date(iso + "T00:00:00Z")); }
  function fill(text, values) {
    Object.keys(values).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }
  function para(text) {
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    return p;
  }
  function ruleUrl(number) {
    var rule = /^(\d{3}\.\d+)[a-z]$/.exec(number);
    var page = rule ? rule[1] : number;
    return new URL(lang + "/rules/" + page + ".html" + (rule ? "#" + number : ""), root).href;
  }
  function ruleOf(number) {
    var m = /^(\d{3}\.\d+)/.exec(number);
    return m ? m[1] : number;
  }
  function resolve(edition, number) {
    box.textContent = "";
    var start = map.editions.indexOf(edition);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(edition) || !/^(\d{3}(\.\d+[a-z]?)?|[1-9])$/.test(number)) {
      para(messages.bad);
      return;
    }
    if (start < 0) {
      para(fill(messages.noedition, { edition: edition }));
      return;
    }
    var current = number;
    var moves = [];
    for (var i = start; i < map.steps.length; i++) {
      var step = map.steps[i];
      var when = map.editions[i + 1];
      if (step.removed.indexOf(current) >= 0 && !(current in step.moved)) {
        moves.forEach(function (m) { para(m); });
        para(fill(messages.removed, { number: number, edition: date(edition), date: date(when) }));
        return;
      }
      if (current in step.moved) {
        var next = step.moved[current];
        moves.push(fill(messages.moved, { old: current, "new": next, date: date(when) }));
        current = next;
      }
    }
    var newest = map.editions[map.editions.length - 1];
    if (!today[current]) {
      para(fill(messages.unknown, { number: current }));
      return;
    }
    var head = para(fill(current === number ? messages.same : messages.today, {
      number: number, edition: date(edition), today: current, newest: date(newest)
    }));
    head.className = "cite-answer";
    moves.forEach(function (m) { para(m); });
    var since = map.since[ruleOf(current)];
    if (since && since > edition) {
      para(fill(messages.changed, { edition: date(edition), date: date(since) }));
    } else {
      para(fill(messages.unchanged, { edition: date(edition) }));
    }
    var link = document.createElement("a");
    link.href = ruleUrl(current);
    link.id = "cite-link";
    link.textContent = messages.go + " " + current;
    var p = document.createElement("p");
    p.appendChild(link);
    box.appendChild(p);
  }
  function fromHash() {
    var hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (!hash) { return; }
    var parts = hash.split("/");
    var edition = parts[0], number = (parts[1] || "").trim().replace(/\.$/, "");
    if (map.editions.indexOf(edition) >= 0) { editionField.value = edition; }
    numberField.value = number;
    resolve(edition, number);
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var target = editionField.value + "/" + numberField.value.trim();
    history.replaceState(null, "", "#" + target);
    resolve(editionField.value, numberField.value.trim().replace(/\.$/, ""));
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
