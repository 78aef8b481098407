<?xml version="1.0" encoding="UTF-8"?>
<!--
  Compiles an ISO Schematron schema (queryBinding xslt2) into an XSLT 2.0
  stylesheet that checks a document and writes one <failed-assert> or
  <successful-report> element per finding, inside <findings>.

  It covers what the Peppol BIS Billing 3.0 and CEN EN 16931 UBL schemas
  use: ns, global and rule-level let, xsl:function, pattern, rule
  (context, first matching rule of a pattern wins), assert and report with
  id, flag and a message (value-of and name inside it). Abstract rules,
  includes, phases (all patterns run) and diagnostics are not used by
  those schemas and are not compiled.

  Run with an XSLT 2.0 processor (Saxon HE):
    java -cp Saxon-HE.jar net.sf.saxon.Transform -s:rules.sch -xsl:schematron.xsl -o:rules.xsl
    java -cp Saxon-HE.jar net.sf.saxon.Transform -s:invoice.xml -xsl:rules.xsl
-->
<xsl:stylesheet version="2.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:axsl="urn:einvoice:alias-xsl"
  xmlns:sch="http://purl.oclc.org/dsdl/schematron">

  <xsl:namespace-alias stylesheet-prefix="axsl" result-prefix="xsl"/>
  <xsl:output method="xml" indent="yes"/>

  <xsl:template match="/sch:schema">
    <axsl:stylesheet version="2.0">
      <xsl:for-each select="sch:ns">
        <xsl:namespace name="{@prefix}" select="string(@uri)"/>
      </xsl:for-each>
      <xsl:copy-of select="xsl:*[local-name() != 'include']" copy-namespaces="yes"/>
      <xsl:for-each select="sch:let">
        <axsl:variable name="{@name}" select="{@value}"/>
      </xsl:for-each>
      <axsl:template match="/">
        <findings>
          <xsl:for-each select="sch:pattern">
            <axsl:apply-templates select="/" mode="p{position()}"/>
          </xsl:for-each>
        </findings>
      </axsl:template>
      <xsl:apply-templates select="sch:pattern"/>
    </axsl:stylesheet>
  </xsl:template>

  <!-- A pattern is a mode: each node is checked by the first rule whose
       context matches it (rules are given descending priorities), then
       its attributes and children are visited. -->
  <xsl:template match="sch:pattern">
    <xsl:variable name="mode" select="concat('p', count(preceding-sibling::sch:pattern) + 1)"/>
    <xsl:variable name="n" select="count(sch:rule)"/>
    <xsl:for-each select="sch:let">
      <axsl:variable name="{@name}" select="{@value}"/>
    </xsl:for-each>
    <xsl:for-each select="sch:rule">
      <axsl:template match="{@context}" mode="{$mode}" priority="{1000 + $n - position()}">
        <xsl:for-each select="sch:let">
          <axsl:variable name="{@name}" select="{@value}"/>
        </xsl:for-each>
        <xsl:apply-templates select="sch:assert | sch:report"/>
        <axsl:apply-templates select="@*|node()" mode="{$mode}"/>
      </axsl:template>
    </xsl:for-each>
    <axsl:template match="@*|node()" mode="{$mode}" priority="-10">
      <axsl:apply-templates select="@*|node()" mode="{$mode}"/>
    </axsl:template>
  </xsl:template>

  <xsl:template match="sch:assert">
    <axsl:if test="not({@test})">
      <failed-assert id="{@id}" flag="{@flag}">
        <axsl:attribute name="location" select="string-join(for $a in ancestor-or-self::node()[parent::node()] return concat(name($a), '[', count($a/preceding-sibling::*[name() = name($a)]) + 1, ']'), '/')"/>
        <xsl:apply-templates mode="text"/>
      </failed-assert>
    </axsl:if>
  </xsl:template>

  <xsl:template match="sch:report">
    <axsl:if test="{@test}">
      <successful-report id="{@id}" flag="{@flag}">
        <xsl:apply-templates mode="text"/>
      </successful-report>
    </axsl:if>
  </xsl:template>

  <xsl:template match="text()" mode="text">
    <axsl:text><xsl:value-of select="."/></axsl:text>
  </xsl:template>
  <xsl:template match="sch:value-of" mode="text">
    <axsl:value-of select="{@select}"/>
  </xsl:template>
  <xsl:template match="sch:name" mode="text">
    <axsl:value-of select="name({(@path, '.')[1]})"/>
  </xsl:template>
  <xsl:template match="*" mode="text">
    <xsl:apply-templates mode="text"/>
  </xsl:template>
</xsl:stylesheet>
