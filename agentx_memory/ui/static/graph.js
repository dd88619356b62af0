// Draws the entity graph of the page's JSON with cytoscape.js (vendored, see vendor/cytoscape/LICENSE).
(function () {
  "use strict";
  var palette = {
    person: "#2f6fde", organization: "#b5452f", project: "#7a4fcf", location: "#2e9a5b",
    tool: "#c98a12", concept: "#3b8f9e", event: "#c2417e", other: "#6b7280"
  };
  var elements = JSON.parse(document.getElementById("graph-data").textContent);
  var cy = cytoscape({
    container: document.getElementById("graph"),
    elements: elements,
    // Repulsion high enough that a dozen labelled nodes do not overlap; zoom capped so a small graph
    // is not blown up to fill the box.
    layout: { name: "cose", animate: false, randomize: false, padding: 40, nodeRepulsion: 400000,
              idealEdgeLength: 90, nodeOverlap: 40, componentSpacing: 80, gravity: 60, numIter: 1500 },
    maxZoom: 1.4,
    minZoom: 0.2,
    style: [
      { selector: "node", style: {
          "label": "data(label)", "font-size": 12, "text-valign": "bottom", "text-margin-y": 4,
          "color": "#1f2937", "text-background-color": "#ffffff", "text-background-opacity": 0.8,
          "width": "mapData(mentions, 1, 10, 18, 42)", "height": "mapData(mentions, 1, 10, 18, 42)",
          "background-color": function (node) { return palette[node.data("type")] || palette.other; }
      } },
      { selector: "edge", style: {
          "label": "data(label)", "font-size": 9, "color": "#4b5563", "width": 1.5,
          "line-color": "#9ca3af", "target-arrow-color": "#9ca3af", "target-arrow-shape": "triangle",
          "curve-style": "bezier", "text-rotation": "autorotate", "text-background-color": "#ffffff",
          "text-background-opacity": 0.8
      } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#111827" } }
    ]
  });
  var info = document.getElementById("graph-info");
  cy.on("tap", "node", function (event) {
    var d = event.target.data();
    var rows = [["type", d.type], ["aliases", d.aliases], ["mentions", d.mentions], ["channel", d.channel],
                ["about", d.description]];
    info.textContent = "";
    var title = document.createElement("h2");
    title.textContent = d.label;
    info.appendChild(title);
    var list = document.createElement("dl");
    rows.forEach(function (row) {
      if (row[1] === "" || row[1] === undefined) { return; }
      var dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = row[0]; dd.textContent = String(row[1]);
      list.appendChild(dt); list.appendChild(dd);
    });
    info.appendChild(list);
  });
  window.agentxGraph = cy;  // for the browser tests and the console
})();
