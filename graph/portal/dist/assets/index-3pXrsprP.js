const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/invoices-BqxCD_G0.js","assets/ops-submission-ClBjvlpX.js","assets/webhooks-B9gEsqK9.js","assets/faults-X-4uRa4y.js"])))=>i.map(i=>d[i]);
var ve,k,Rt,Y,pt,Et,Pt,Oe,De,me,Tt,et,Fe,We,xt,Ee={},Pe=[],dn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,Ie=Array.isArray;function V(n,e){for(var r in e)n[r]=e[r];return n}function tt(n){n&&n.parentNode&&n.parentNode.removeChild(n)}function X(n,e,r){var i,a,o,s={};for(o in e)o=="key"?i=e[o]:o=="ref"?a=e[o]:s[o]=e[o];if(arguments.length>2&&(s.children=arguments.length>3?ve.call(arguments,2):r),typeof n=="function"&&n.defaultProps!=null)for(o in n.defaultProps)s[o]===void 0&&(s[o]=n.defaultProps[o]);return ye(n,s,i,a,null)}function ye(n,e,r,i,a){var o={type:n,props:e,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++Rt,__i:-1,__u:0};return a==null&&k.vnode!=null&&k.vnode(o),o}function L(n){return n.children}function Ce(n,e){this.props=n,this.context=e}function oe(n,e){if(e==null)return n.__?oe(n.__,n.__i+1):null;for(var r;e<n.__k.length;e++)if((r=n.__k[e])!=null&&r.__e!=null)return r.__e;return typeof n.type=="function"?oe(n):null}function ln(n){if(n.__P&&n.__d){var e=n.__v,r=e.__e,i=[],a=[],o=V({},e);o.__v=e.__v+1,k.vnode&&k.vnode(o),nt(n.__P,o,e,n.__n,n.__P.namespaceURI,32&e.__u?[r]:null,i,r??oe(e),!!(32&e.__u),a),o.__v=e.__v,o.__.__k[o.__i]=o,Kt(i,o,a),e.__e=e.__=null,o.__e!=r&&Nt(o)}}function Nt(n){if((n=n.__)!=null&&n.__c!=null)return n.__e=n.__c.base=null,n.__k.some(function(e){if(e!=null&&e.__e!=null)return n.__e=n.__c.base=e.__e}),Nt(n)}function Me(n){(!n.__d&&(n.__d=!0)&&Y.push(n)&&!Te.__r++||pt!=k.debounceRendering)&&((pt=k.debounceRendering)||Et)(Te)}function Te(){try{for(var n,e=1;Y.length;)Y.length>e&&Y.sort(Pt),n=Y.shift(),e=Y.length,ln(n)}finally{Y.length=Te.__r=0}}function qt(n,e,r,i,a,o,s,d,p,l,h){var u,c,f,g,$,b,S=i&&i.__k||Pe,_=e.length;for(p=un(r,e,S,p,_),u=0;u<_;u++)(f=r.__k[u])!=null&&(c=f.__i!=-1&&S[f.__i]||Ee,f.__i=u,b=nt(n,f,c,a,o,s,d,p,l,h),g=f.__e,f.ref&&c.ref!=f.ref&&(c.ref&&rt(c.ref,null,f),h.push(f.ref,f.__c||g,f)),$==null&&g!=null&&($=g),4&f.__u?(p=Lt(f,p,n),c.__e&&(c.__e=null)):typeof f.type=="function"&&b!==void 0?p=b:g&&(p=g.nextSibling),f.__u&=-7);return r.__e=$,p}function un(n,e,r,i,a){var o,s,d,p,l,h=r.length,u=h,c=0;for(n.__k=new Array(a),o=0;o<a;o++)(s=e[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=n.__k[o]=ye(null,s,null,null,null):Ie(s)?s=n.__k[o]=ye(L,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=n.__k[o]=ye(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):n.__k[o]=s,p=o+c,s.__=n,s.__b=n.__b+1,d=null,(l=s.__i=pn(s,r,p,u))!=-1&&(u--,(d=r[l])&&(d.__u|=2)),d==null||d.__v==null?(l==-1&&(a>h?c--:a<h&&c++),typeof s.type!="function"&&(s.__u|=4)):l!=p&&(l==p-1?c--:l==p+1?c++:(l>p?c--:c++,s.__u|=4))):n.__k[o]=null;if(u)for(o=0;o<h;o++)(d=r[o])!=null&&(2&d.__u)==0&&(d.__e==i&&(i=oe(d)),zt(d,d));return i}function Lt(n,e,r){var i,a;if(typeof n.type=="function"){for(i=n.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=n,e=Lt(i[a],e,r));return e}n.__e!=e&&(e&&n.type&&!e.parentNode&&(e=oe(n)),e=r.insertBefore(n.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function Ut(n,e){return e=e||[],n==null||typeof n=="boolean"||(Ie(n)?n.some(function(r){Ut(r,e)}):e.push(n)),e}function pn(n,e,r,i){var a,o,s,d=n.key,p=n.type,l=e[r],h=l!=null&&(2&l.__u)==0;if(l===null&&d==null||h&&d==l.key&&p==l.type)return r;if(i>(h?1:0)){for(a=r-1,o=r+1;a>=0||o<e.length;)if((l=e[s=a>=0?a--:o++])!=null&&(2&l.__u)==0&&d==l.key&&p==l.type)return s}return-1}function ht(n,e,r){e[0]=="-"?n.setProperty(e,r??""):n[e]=r==null?"":typeof r!="number"||dn.test(e)?r:r+"px"}function Se(n,e,r,i,a){var o,s;e:if(e=="style")if(typeof r=="string")n.style.cssText=r;else{if(typeof i=="string"&&(n.style.cssText=i=""),i)for(e in i)r&&e in r||ht(n.style,e,"");if(r)for(e in r)i&&r[e]==i[e]||ht(n.style,e,r[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(Tt,"$1")),s=e.toLowerCase(),e=s in n||e=="onFocusOut"||e=="onFocusIn"?s.slice(2):e.slice(2),n.l||(n.l={}),n.l[e+o]=r,r?i?r[me]=i[me]:(r[me]=et,n.addEventListener(e,o?We:Fe,o)):n.removeEventListener(e,o?We:Fe,o);else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in n)try{n[e]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&e[4]!="-"?n.removeAttribute(e):n.setAttribute(e,e=="popover"&&r==1?"":r))}}function ft(n){return function(e){if(this.l){var r=this.l[e.type+n];if(e[De]==null)e[De]=et++;else if(e[De]<r[me])return;return r(k.event?k.event(e):e)}}}function nt(n,e,r,i,a,o,s,d,p,l){var h,u,c,f,g,$,b,S,_,y,q,U,H,ie,J,C,P=e.type;if(e.constructor!==void 0)return null;128&r.__u&&(p=!!(32&r.__u),o=[d=e.__e=r.__e]),(h=k.__b)&&h(e);e:if(typeof P=="function"){u=s.length;try{if(_=e.props,y=P.prototype&&P.prototype.render,q=(h=P.contextType)&&i[h.__c],U=h?q?q.props.value:h.__:i,r.__c?S=(c=e.__c=r.__c).__=c.__E:(y?e.__c=c=new P(_,U):(e.__c=c=new Ce(_,U),c.constructor=P,c.render=fn),q&&q.sub(c),c.state||(c.state={}),c.__n=i,f=c.__d=!0,c.__h=[],c._sb=[]),y&&c.__s==null&&(c.__s=c.state),y&&P.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=V({},c.__s)),V(c.__s,P.getDerivedStateFromProps(_,c.__s))),g=c.props,$=c.state,c.__v=e,f)y&&P.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),y&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(y&&P.getDerivedStateFromProps==null&&_!==g&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(_,U),e.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(_,c.__s,U)===!1){e.__v!=r.__v&&(c.props=_,c.state=c.__s,c.__d=!1),e.__e=r.__e,e.__k=r.__k,e.__k.some(function(O){O&&(O.__=e)}),Pe.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),d=oe(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(_,c.__s,U),y&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(g,$,b)})}if(c.context=U,c.props=_,c.__P=n,c.__e=!1,H=k.__r,ie=0,y)c.state=c.__s,c.__d=!1,H&&H(e),h=c.render(c.props,c.state,c.context),Pe.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,H&&H(e),h=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++ie<25);c.state=c.__s,c.getChildContext!=null&&(i=V(V({},i),c.getChildContext())),y&&!f&&c.getSnapshotBeforeUpdate!=null&&(b=c.getSnapshotBeforeUpdate(g,$)),J=h!=null&&h.type===L&&h.key==null?Bt(h.props.children):h,d=qt(n,Ie(J)?J:[J],e,r,i,a,o,s,d,p,l),c.base=e.__e,e.__u&=-161,c.__h.length&&s.push(c),S&&(c.__E=c.__=null)}catch(O){if(s.length=u,e.__v=null,p||o!=null){if(O.then){for(e.__u|=p?160:128;d&&d.nodeType==8&&d.nextSibling;)d=d.nextSibling;o!=null&&(o[o.indexOf(d)]=null),e.__e=d}else if(o!=null)for(C=o.length;C--;)tt(o[C])}else e.__e=r.__e;e.__k==null&&(e.__k=r.__k||[]),O.then||Ot(e),k.__e(O,e,r)}}else o==null&&e.__v==r.__v?(e.__k=r.__k,e.__e=r.__e):d=e.__e=hn(r.__e,e,r,i,a,o,s,p,l);return(h=k.diffed)&&h(e),128&e.__u?void 0:d}function Ot(n){n&&(n.__c&&(n.__c.__e=!0),n.__k&&n.__k.some(Ot))}function Kt(n,e,r){for(var i=0;i<r.length;i++)rt(r[i],r[++i],r[++i]);k.__c&&k.__c(e,n),n.some(function(a){try{n=a.__h,a.__h=[],n.some(function(o){o.call(a)})}catch(o){k.__e(o,a.__v)}})}function Bt(n){return typeof n!="object"||n==null||n.__b>0?n:Ie(n)?n.map(Bt):n.constructor!==void 0?null:V({},n)}function hn(n,e,r,i,a,o,s,d,p){var l,h,u,c,f,g,$,b=r.props||Ee,S=e.props,_=e.type;if(_=="svg"?a="http://www.w3.org/2000/svg":_=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(l=0;l<o.length;l++)if((f=o[l])&&"setAttribute"in f==!!_&&(_?f.localName==_:f.nodeType==3)){n=f,o[l]=null;break}}if(n==null){if(_==null)return document.createTextNode(S);n=document.createElementNS(a,_,S.is&&S),d&&(k.__m&&k.__m(e,o),d=!1),o=null}if(_==null)b===S||d&&n.data==S||(n.data=S);else{if(o=_=="textarea"&&S.defaultValue!=null?null:o&&ve.call(n.childNodes),!d&&o!=null)for(b={},l=0;l<n.attributes.length;l++)b[(f=n.attributes[l]).name]=f.value;for(l in b)f=b[l],l=="dangerouslySetInnerHTML"?u=f:l=="children"||l in S||l=="value"&&"defaultValue"in S||l=="checked"&&"defaultChecked"in S||Se(n,l,null,f,a);for(l in S)f=S[l],l=="children"?c=f:l=="dangerouslySetInnerHTML"?h=f:l=="value"?g=f:l=="checked"?$=f:d&&typeof f!="function"||b[l]===f||Se(n,l,f,b[l],a);if(h)d||u&&(h.__html==u.__html||h.__html==n.innerHTML)||(n.innerHTML=h.__html),e.__k=[];else if(u&&(n.innerHTML=""),qt(e.type=="template"?n.content:n,Ie(c)?c:[c],e,r,i,_=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&oe(r,0),d,p),o!=null)for(l=o.length;l--;)tt(o[l]);d&&_!="textarea"||(l="value",_=="progress"&&g==null?n.removeAttribute("value"):g!=null&&(g!==n[l]||_=="progress"&&!g||_=="option"&&g!=b[l])&&Se(n,l,g,b[l],a),l="checked",$!=null&&$!=n[l]&&Se(n,l,$,b[l],a))}return n}function rt(n,e,r){try{if(typeof n=="function"){var i=typeof n.__u=="function";i&&n.__u(),i&&e==null||(n.__u=n(e))}else n.current=e}catch(a){k.__e(a,r)}}function zt(n,e,r){var i,a;if(k.unmount&&k.unmount(n),(i=n.ref)&&(i.current&&i.current!=n.__e||rt(i,null,e)),(i=n.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){k.__e(o,e)}i.base=i.__P=i.__n=null}if(i=n.__k)for(a=0;a<i.length;a++)i[a]&&zt(i[a],e,r||typeof n.type!="function");r||tt(n.__e),n.__c=n.__=n.__e=void 0}function fn(n,e,r){return this.constructor(n,r)}function gn(n,e,r){var i,a,o,s;e==document&&(e=document.documentElement),k.__&&k.__(n,e),a=(i=!1)?null:e.__k,o=[],s=[],nt(e,n=e.__k=X(L,null,[n]),a||Ee,Ee,e.namespaceURI,a?null:e.firstChild?ve.call(e.childNodes):null,o,a?a.__e:e.firstChild,i,s),Kt(o,n,s),n.props.children=null}function gt(n,e,r){var i,a,o,s,d=V({},n.props);for(o in n.type&&n.type.defaultProps&&(s=n.type.defaultProps),e)o=="key"?i=e[o]:o=="ref"?a=e[o]:d[o]=e[o]===void 0&&s!=null?s[o]:e[o];return arguments.length>2&&(d.children=arguments.length>3?ve.call(arguments,2):r),ye(n.type,d,i||n.key,a||n.ref,null)}function Ft(n){function e(r){var i,a;return this.getChildContext||(i=new Set,(a={})[e.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,Me(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return e.__c="__cC"+xt++,e.__=n,e.Provider=e.__l=(e.Consumer=function(r,i){return r.children(i)}).contextType=e,e}ve=Pe.slice,k={__e:function(n,e,r,i){for(var a,o,s;e=e.__;)if((a=e.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(n)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(n,i||{}),s=a.__d),s)return a.__E=a}catch(d){n=d}throw n}},Rt=0,Ce.prototype.setState=function(n,e){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=V({},this.state),typeof n=="function"&&(n=n(V({},r),this.props)),n&&V(r,n),n!=null&&this.__v&&(e&&this._sb.push(e),Me(this))},Ce.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),Me(this))},Ce.prototype.render=L,Y=[],Et=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Pt=function(n,e){return n.__v.__b-e.__v.__b},Te.__r=0,Oe=Math.random().toString(8),De="__d"+Oe,me="__a"+Oe,Tt=/(PointerCapture)$|Capture$/i,et=0,Fe=ft(!1),We=ft(!0),xt=0;var mn=0;function t(n,e,r,i,a,o){e||(e={});var s,d,p=e;if("ref"in p)for(d in p={},e)d=="ref"?s=e[d]:p[d]=e[d];var l={type:n,props:p,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--mn,__i:-1,__u:0,__source:a,__self:o};if(typeof n=="function"&&(s=n.defaultProps))for(d in s)p[d]===void 0&&(p[d]=s[d]);return k.vnode&&k.vnode(l),l}const yn=(function(){const e=typeof document<"u"&&document.createElement("link").relList;return e&&e.supports&&e.supports("modulepreload")?"modulepreload":"preload"})(),_n=function(n){return"/"+n},mt={},pe=function(e,r,i){let a=Promise.resolve();if(r&&r.length>0){let p=function(l){return Promise.all(l.map(h=>Promise.resolve(h).then(u=>({status:"fulfilled",value:u}),u=>({status:"rejected",reason:u}))))};document.getElementsByTagName("link");const s=document.querySelector("meta[property=csp-nonce]"),d=s?.nonce||s?.getAttribute("nonce");a=p(r.map(l=>{if(l=_n(l),l in mt)return;mt[l]=!0;const h=l.endsWith(".css"),u=h?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${l}"]${u}`))return;const c=document.createElement("link");if(c.rel=h?"stylesheet":yn,h||(c.as="script"),c.crossOrigin="",c.href=l,d&&c.setAttribute("nonce",d),document.head.appendChild(c),h)return new Promise((f,g)=>{c.addEventListener("load",f),c.addEventListener("error",()=>g(new Error(`Unable to preload CSS for ${l}`)))})}))}function o(s){const d=new Event("vite:preloadError",{cancelable:!0});if(d.payload=s,window.dispatchEvent(d),!d.defaultPrevented)throw s}return a.then(s=>{for(const d of s||[])d.status==="rejected"&&o(d.reason);return e().catch(o)})};var ae,D,Ke,yt,_e=0,Wt=[],E=k,_t=E.__b,vt=E.__r,It=E.diffed,bt=E.__c,$t=E.unmount,kt=E.__;function be(n,e){E.__h&&E.__h(D,n,_e||e),_e=0;var r=D.__H||(D.__H={__:[],__h:[]});return n>=r.__.length&&r.__.push({}),r.__[n]}function m(n){return _e=1,it(Ht,n)}function it(n,e,r){var i=be(ae++,2);if(i.t=n,!i.__c&&(i.__=[Ht(void 0,e),function(d){var p=i.__N?i.__N[0]:i.__[0],l=i.t(p,d);p!==l&&(i.__N=[l,i.__[1]],i.__c.setState({}))}],i.__c=D,!D.__f)){var a=function(d,p,l){if(!i.__c.__H)return!0;var h=!1,u=i.__c.props!==d;if(i.__c.__H.__.some(function(f){if(f.__N){h=!0;var g=f.__[0];f.__=f.__N,f.__N=void 0,g!==f.__[0]&&(u=!0)}}),o){var c=o.call(this,d,p,l);return h?c||u:c}return!h||u};D.__f=!0;var o=D.shouldComponentUpdate,s=D.componentWillUpdate;D.componentWillUpdate=function(d,p,l){if(this.__e){var h=o;o=void 0,a(d,p,l),o=h}s&&s.call(this,d,p,l)},D.shouldComponentUpdate=a}return i.__N||i.__}function Q(n,e){var r=be(ae++,3);!E.__s&&at(r.__H,e)&&(r.__=n,r.u=e,D.__H.__h.push(r))}function Mt(n,e){var r=be(ae++,4);!E.__s&&at(r.__H,e)&&(r.__=n,r.u=e,D.__h.push(r))}function K(n){return _e=5,qe(function(){return{current:n}},[])}function qe(n,e){var r=be(ae++,7);return at(r.__H,e)&&(r.__=n(),r.__H=e,r.__h=n),r.__}function vn(n,e){return _e=8,qe(function(){return n},e)}function ot(n){var e=D.context[n.__c],r=be(ae++,9);return r.c=n,e?(r.__==null&&(r.__=!0,e.sub(D)),e.props.value):n.__}function In(){for(var n;n=Wt.shift();){var e=n.__H;if(n.__P&&e)try{e.__h.some(Re),e.__h.some(He),e.__h=[]}catch(r){e.__h=[],E.__e(r,n.__v)}}}E.__b=function(n){D=null,_t&&_t(n)},E.__=function(n,e){n&&e.__k&&e.__k.__m&&(n.__m=e.__k.__m),kt&&kt(n,e)},E.__r=function(n){vt&&vt(n),ae=0;var e=(D=n.__c).__H;e&&(Ke===D?(e.__h=[],D.__h=[],e.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(e.__h.some(Re),e.__h.some(He),e.__h=[],ae=0)),Ke=D},E.diffed=function(n){It&&It(n);var e=n.__c;e&&e.__H&&(e.__H.__h.length&&(Wt.push(e)!==1&&yt===E.requestAnimationFrame||((yt=E.requestAnimationFrame)||bn)(In)),e.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),Ke=D=null},E.__c=function(n,e){e.some(function(r){try{r.__h.some(Re),r.__h=r.__h.filter(function(i){return!i.__||He(i)})}catch(i){e.some(function(a){a.__h&&(a.__h=[])}),e=[],E.__e(i,r.__v)}}),bt&&bt(n,e)},E.unmount=function(n){$t&&$t(n);var e,r=n.__c;r&&r.__H&&(r.__H.__.some(function(i){try{Re(i)}catch(a){e=a}}),r.__H=void 0,e&&E.__e(e,r.__v))};var St=typeof requestAnimationFrame=="function";function bn(n){var e,r=function(){clearTimeout(i),St&&cancelAnimationFrame(e),setTimeout(n)},i=setTimeout(r,35);St&&(e=requestAnimationFrame(r))}function Re(n){var e=D,r=n.__c;typeof r=="function"&&(n.__c=void 0,r()),D=e}function He(n){var e=D;n.__c=n.__(),D=e}function at(n,e){return!n||n.length!==e.length||e.some(function(r,i){return r!==n[i]})}function Ht(n,e){return typeof e=="function"?e(n):e}let de,ge;function $n(n){return!ge||(typeof ge=="string"?n.startsWith(ge):ge.test(n))}function kn(n,e){let r="";if(de=void 0,e&&e.type==="click"){if(e.ctrlKey||e.metaKey||e.altKey||e.shiftKey||e.button!==0)return n;const i=e.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!$n(a)||i.download)return n;de=!0,e.preventDefault(),r=i.href.replace(location.origin,"")}else e&&e.url?(de=!e.replace,r=e.url):r=location.pathname+location.search;return de===!0?history.pushState(null,"",r):de===!1&&history.replaceState(null,"",r),r}const Sn=(n,e,r={})=>{n=n.split("/").filter(Boolean),e=(e||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(n.length,e.length);i++){let[,s,d,p]=(e[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=n[i],!(!s&&d==a)){if(!s&&a&&p=="*"){r.rest="/"+n.slice(i).join("/");break}if(!s||!a&&p!="?"&&p!="*")return;if(o=p=="+"||p=="*",o?a=n.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[d]=a,d in r||(r[d]=a),o)break}}return r};function $e(n){const[e,r]=it(kn,n.url||location.pathname+location.search);n.scope&&(ge=n.scope);const i=de===!0,a=qe(()=>{const o=new URL(e,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:e,path:s,query:Object.fromEntries(o.searchParams),route:(d,p)=>r({url:d,replace:p}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[e]);return Mt(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),X($e.ctx.Provider,{value:a},n.children)}const wn=Promise.resolve();function Ve(n){const[e,r]=it(C=>C+1,0),{url:i,query:a,wasPush:o,path:s}=F();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:d=s,params:p={}}=ot(Qe),l=K(!1),h=K(s),u=K(1),c=K(),f=K(),g=K(),$=K(!1),b=K();b.current=!1;let S,_,y;Ut(n.children).some(C=>{if(Sn(d,C.props.path,y={...C.props,path:d,query:a,params:Object.assign({},p),rest:""}))return S=gt(C,y);C.props.default&&(_=gt(C,y))});let q=S||_;const U=c.current&&c.current.__u&we&&c.current.__u&Ae,H=c.current&&c.current.__h,ie=qe(()=>{f.current=c.current,c.current=X(Qe.Provider,{value:y},q);const C=f.current&&f.current.props.children;return!C||!q||q.type!==C.type||q.props.component!==C.props.component?(u.current++,!0):!1},[i,JSON.stringify(y)]);U?(c.current.__u|=we,c.current.__u|=Ae):H&&(c.current.__h=!0);const J=f.current;return f.current=null,this.__c=(C,P)=>{b.current=!0,f.current=J,n.onLoadStart&&n.onLoadStart(i),l.current=!0;let O=u.current;C.then(()=>{O===u.current&&(f.current=null,c.current&&(P.__h&&(c.current.__h=P.__h),P.__u&Ae&&(c.current.__u|=Ae),P.__u&we&&(c.current.__u|=we)),wn.then(r))})},Mt(()=>{const C=this.__v&&this.__v.__e;if(b.current){!$.current&&!g.current&&(g.current=C);return}!$.current&&g.current&&(g.current!==C&&g.current.remove(),g.current=null),$.current=!0,h.current!==s&&(o&&scrollTo(0,0),n.onRouteChange&&n.onRouteChange(i),h.current=s),n.onLoadEnd&&l.current&&n.onLoadEnd(i),l.current=!1},[s,o,e]),ie?[X(Be,{r:c,key:u.current}),X(Be,{r:f,key:u.current-1})]:X(Be,{r:c,key:u.current})}const we=32,Ae=128,Be=({r:n})=>n.current;Ve.Provider=$e;$e.ctx=Ft({});const Qe=Ft({}),T=n=>X(n.component,n),F=()=>ot($e.ctx),te=()=>ot(Qe),wt=k.__b;k.__b=n=>{n.type&&n.type._forwarded&&n.ref&&(n.props.ref=n.ref,n.ref=null),wt&&wt(n)};function ke(n){let e,r;const i=()=>n().then(o=>r=o&&o.default||o),a=o=>{const[,s]=m(0),d=K(r);if(e||(e=i()),r!==void 0)return X(r,o);throw d.current||(d.current=e.then(()=>s(1))),e};return a.preload=()=>(e||(e=i()),e),a._forwarded=!0,a}const At=k.__e;k.__e=(n,e,r)=>{if(n&&n.then){let i=e;for(;i=i.__;)if(i.__c&&i.__c.__c)return e.__e==null&&(e.__c.__z=[r.__e],e.__e=r.__e,e.__k=r.__k),e.__k||(e.__k=[]),i.__c.__c(n,e)}At&&At(n,e,r)};const Ge={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class x extends Error{code;problems;constructor(e,r,i=[]){super(r),this.code=e,this.problems=i}static from(e){const r=e[0],i=r?.extensions?.code??"internal",a=e.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&Ge[i]&&i!=="unauthenticated"&&(o=`${Ge[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new x(i,o,a)}fieldErrors(e=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&e.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Vt(){return new x("network",Ge.network)}function An(n){return n instanceof x||n instanceof Error?n.message:String(n)}function jn(n){let e=n;const r=new Set;return{get:()=>e,set(i){e=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function Dn(n){const[e,r]=m(n.get());return Q(()=>(r(n.get()),n.subscribe(r)),[n]),e}const Z=jn({status:"unknown"});let Je;function st(n,e,r){const i=Date.now()+e*1e3;Z.set({status:"signedIn",token:n,expiresAt:i,user:r}),clearTimeout(Je);const a=Math.max(1e4,e*1e3-6e4);Je=setTimeout(()=>{Le()},a)}function ct(){clearTimeout(Je),Z.set({status:"signedOut"})}let Ye,fe;function Cn(n){Ye=n}function Le(){if(fe)return fe;const n=async()=>{if(!Ye)return!1;const i=await Ye();return i?(st(i.accessToken,i.expiresIn,i.user),!0):(ct(),!1)},e=navigator.locks;return fe=(e?e.request("einvoice-session-refresh",n):n()).finally(()=>{fe=void 0}),fe}const Qt="/graphql";async function xe(n,e,r){const i={"Content-Type":"application/json",Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let a;try{a=await fetch(Qt,{method:"POST",headers:i,body:JSON.stringify({query:n,variables:e}),credentials:"same-origin"})}catch{throw Vt()}let o;try{o=await a.json()}catch{throw a.status===429?new x("rate_limited","Too many requests. Wait a moment and try again."):new x("internal",`The server answered ${a.status}.`)}return a.status===401&&!o.errors&&(o.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),o}function jt(n){return!!n?.some(e=>e.extensions?.code==="unauthenticated")}async function R(n,...[e]){const r=n.toString();let i=await xe(r,e??{},Z.get().token);if(jt(i.errors)&&Z.get().token!==void 0)if(await Le())i=await xe(r,e??{},Z.get().token);else throw new x("unauthenticated","Your session has ended. Log in again.");if(i.errors?.length)throw jt(i.errors)&&Z.get().status==="signedIn"&&ct(),x.from(i.errors);if(!i.data)throw new x("internal","The server answered no data.");return i.data}async function dt(n,e){const r=await xe(n.toString(),e??{});if(r.errors?.length)throw x.from(r.errors);if(!r.data)throw new x("internal","The server answered no data.");return r.data}const Rn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";Cn(async()=>{try{return(await xe(Rn,{})).data?.refreshSession??null}catch{return null}});let le;async function En(){if(le)return le;const{createClient:n}=await pe(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),e=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Qt}`;return le=n({url:e,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=Z.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Le()}}}),le}function Pn(){le?.dispose(),le=void 0}function Tn(n,e,r,i){let a,o=!1;return En().then(s=>{o||(a=s.subscribe({query:n.toString(),variables:e},{next:d=>{d.errors?.length?i(x.from(d.errors)):d.data&&r(d.data)},error:d=>{Array.isArray(d)?i(x.from(d)):i(Vt())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function G(n,e){const[r,i]=m({loading:!0}),[a,o]=m(0),s=K(0);Q(()=>{const p=++s.current;i(l=>({data:l.data,loading:!0})),n().then(l=>p===s.current&&i({data:l,loading:!1}),l=>p===s.current&&i({error:l,loading:!1}))},[...e,a]);const d=vn(()=>o(p=>p+1),[]);return{...r,reload:d}}class I extends String{__apiType;value;__meta__;constructor(e,r){super(e),this.value=e,this.__meta__=r}toString(){return this.value}}const xn=new I(`
    query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {
  project(id: $id) {
    id
    name
    environment
    invoiceQueue {
      depth
      oldestAgeSeconds
      atRisk
      missed
      nextDeadlineAt
      ratePerMinute
      nrsStatus
    }
    invoices(first: $first, after: $after, filter: $filter) {
      edges {
        node {
          id
          irn
          status
          invoiceType
          invoiceTypeCode
          issueDate
          customerTin
          paymentStatus
          createdAt
          updatedAt
          confirmedAt
          deadlineAt
          deadlineAtRisk
          deadlineMissed
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `),Nn=new I(`
    query Invoice($id: ID!) {
  invoice(id: $id) {
    id
    projectId
    irn
    status
    invoiceType
    invoiceTypeCode
    payloadHash
    issueDate
    customerTin
    billingReference
    paymentStatus
    qrCodeData
    pendingCall
    nrsError {
      id
      message
    }
    createdAt
    updatedAt
    signedAt
    transmittedAt
    confirmedAt
    deadlineAt
    deadlineAtRisk
    deadlineMissed
    events {
      seq
      kind
      fromStatus
      toStatus
      operation
      attempt
      latencyMs
      httpStatus
      nrsErrorId
      requestBody
      responseBody
      message
      createdAt
    }
  }
}
    `),qn=new I(`
    subscription InvoiceUpdated($id: ID!) {
  invoiceUpdated(id: $id) {
    id
    projectId
    irn
    status
    invoiceType
    invoiceTypeCode
    payloadHash
    issueDate
    customerTin
    billingReference
    paymentStatus
    qrCodeData
    pendingCall
    nrsError {
      id
      message
    }
    createdAt
    updatedAt
    signedAt
    transmittedAt
    confirmedAt
    deadlineAt
    deadlineAtRisk
    deadlineMissed
    events {
      seq
      kind
      fromStatus
      toStatus
      operation
      attempt
      latencyMs
      httpStatus
      nrsErrorId
      requestBody
      responseBody
      message
      createdAt
    }
  }
}
    `),Ln=new I(`
    query WebhookEndpoints($id: ID!) {
  project(id: $id) {
    id
    name
    environment
    webhookEndpoints(first: 50) {
      edges {
        node {
          id
          url
          description
          eventTypes
          enabled
          disabledReason
          secretLast4
          previousSecretExpiresAt
          failingSince
          createdAt
          updatedAt
        }
      }
    }
  }
}
    `),Un=new I(`
    query WebhookDeliveries($id: ID!, $first: Int) {
  project(id: $id) {
    id
    name
    webhookEndpoints(first: 50) {
      edges {
        node {
          id
          url
          description
          eventTypes
          enabled
          disabledReason
          secretLast4
          previousSecretExpiresAt
          failingSince
          deliveries(first: $first) {
            edges {
              node {
                id
                deliveryId
                eventId
                eventType
                attempt
                status
                httpStatus
                latencyMs
                responseBody
                error
                createdAt
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      }
    }
  }
}
    `),On=new I(`
    mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) {
    secret
    endpoint {
      id
      url
      secretLast4
    }
  }
}
    `),Kn=new I(`
    mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(input: $input) {
    id
    enabled
    disabledReason
  }
}
    `),Bn=new I(`
    mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    id
    deleted
  }
}
    `),zn=new I(`
    mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {
  rotateWebhookEndpointSecret(
    projectId: $projectId
    endpointId: $endpointId
    graceSeconds: $graceSeconds
  ) {
    secret
    endpoint {
      id
      url
      secretLast4
      previousSecretExpiresAt
    }
  }
}
    `),Fn=new I(`
    mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),Wn=new I(`
    mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
  redeliverEvent(eventId: $eventId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),Mn=new I(`
    query SandboxFaults($id: ID!) {
  project(id: $id) {
    id
    name
    environment
  }
  sandboxFaults(projectId: $id) {
    kind
    endpoint
    status
    rate
    retryAfter
    startsAt
    endsAt
  }
}
    `),Hn=new I(`
    mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {
  setSandboxFault(projectId: $projectId, input: $input) {
    kind
    endpoint
    status
    rate
    retryAfter
    startsAt
    endsAt
  }
}
    `),Vn=new I(`
    mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
  clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
}
    `),Qn=new I(`
    mutation Signup($input: SignupInput!) {
  signup(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organization {
      id
    }
  }
}
    `),Gn=new I(`
    mutation Login($input: LoginInput!) {
  login(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organizations {
      id
    }
  }
}
    `),Jn=new I(`
    mutation Logout {
  logout {
    revoked
  }
}
    `),Yn=new I(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),Xn=new I(`
    query Orgs {
  me {
    id
    email
    organizations(first: 200) {
      edges {
        node {
          id
          name
          slug
          role
        }
      }
    }
  }
}
    `),Zn=new I(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),er=new I(`
    query OrgProjects($id: ID!) {
  organization(id: $id) {
    id
    name
    role
    projects(first: 200) {
      edges {
        node {
          id
          name
          environment
          createdAt
          authority {
            configured
          }
        }
      }
    }
  }
}
    `),tr=new I(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),nr=new I(`
    query Project($id: ID!) {
  project(id: $id) {
    id
    name
    environment
    createdAt
    organization {
      id
      name
      role
    }
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),rr=new I(`
    mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
  updateProjectAuthority(projectId: $projectId, input: $input) {
    id
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),ir=new I(`
    query Keys($id: ID!) {
  apiKeyScopes
  project(id: $id) {
    id
    name
    environment
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          clientId
          secretLast4
          scopes
          status
          createdAt
          lastUsedAt
          rotatedAt
          revokedAt
        }
      }
    }
  }
}
    `),or=new I(`
    mutation CreateKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    clientSecret
    key {
      id
      keyName
      clientId
      scopes
    }
  }
}
    `),ar=new I(`
    mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
  rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) {
    clientSecret
    key {
      id
      keyName
      clientId
    }
  }
}
    `),sr=new I(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),cr=new I(`
    query Runs($id: ID!, $after: String) {
  project(id: $id) {
    id
    name
    authority {
      configured
    }
    certificationRuns(first: 20, after: $after) {
      edges {
        node {
          id
          status
          invoiceType
          issueDate
          irn
          failureReason
          createdAt
          finishedAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `),dr=new I(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),lr=new I(`
    query Run($id: ID!) {
  certificationRun(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),ur=new I(`
    subscription RunUpdated($id: ID!) {
  certificationRunUpdated(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),pr=new I(`
    query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
  project(id: $id) {
    id
    name
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          status
        }
      }
    }
    usage(from: $from, to: $to, keyId: $keyId) {
      from
      to
      total
      keyId
      byOperation {
        operation
        count
      }
      daily {
        date
        operation
        count
      }
    }
  }
}
    `),hr=new I(`
    query Audit($org: ID, $action: String, $after: String) {
  auditActions
  auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
    edges {
      node {
        id
        action
        createdAt
        ip
        userAgent
        requestId
        hash
        prevHash
        actor {
          type
          id
        }
        target {
          type
          id
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),fr=new I(`
    query AuditChain($org: ID!) {
  organization(id: $org) {
    id
    auditChain {
      organizationId
      valid
      entries
      headSeq
      headHash
      problem
      brokenEntryId
      verifiedAt
    }
  }
}
    `),gr=new I(`
    query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
  project(id: $projectId) {
    id
    validationProfile
  }
  validateInvoice(projectId: $projectId, input: $input) {
    valid
    schemaVersion
    ruleset
    errors {
      rule
      severity
      path
      loc
      message
    }
    warnings {
      rule
      severity
      path
      loc
      message
    }
  }
}
    `),mr=new I(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),yr=new I(`
    query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
  invoiceQrCode(projectId: $projectId, input: $input, png: true) {
    irn
    timestamp
    qrPayload
    encryption
    keyFingerprint
    qrPngBase64
  }
}
    `),_r=new I(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),vr={"\n  query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {\n    project(id: $id) {\n      id name environment\n      invoiceQueue { depth oldestAgeSeconds atRisk missed nextDeadlineAt ratePerMinute nrsStatus }\n      invoices(first: $first, after: $after, filter: $filter) {\n        edges {\n          node {\n            id irn status invoiceType invoiceTypeCode issueDate customerTin paymentStatus createdAt updatedAt confirmedAt\n            deadlineAt deadlineAtRisk deadlineMissed\n          }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":xn,"\n  query Invoice($id: ID!) {\n    invoice(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":Nn,"\n  subscription InvoiceUpdated($id: ID!) {\n    invoiceUpdated(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":qn,"\n  query WebhookEndpoints($id: ID!) {\n    project(id: $id) {\n      id name environment\n      webhookEndpoints(first: 50) {\n        edges {\n          node { id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince createdAt updatedAt }\n        }\n      }\n    }\n  }\n":Ln,"\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    project(id: $id) {\n      id name\n      webhookEndpoints(first: 50) {\n        edges {\n          node {\n            id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince\n            deliveries(first: $first) {\n              edges { node { id deliveryId eventId eventType attempt status httpStatus latencyMs responseBody error createdAt } }\n              pageInfo { hasNextPage endCursor }\n            }\n          }\n        }\n      }\n    }\n  }\n":Un,"\n  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {\n    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }\n  }\n":On,"\n  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {\n    updateWebhookEndpoint(input: $input) { id enabled disabledReason }\n  }\n":Kn,"\n  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }\n  }\n":Bn,"\n  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {\n    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {\n      secret endpoint { id url secretLast4 previousSecretExpiresAt }\n    }\n  }\n":zn,"\n  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":Fn,"\n  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {\n    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":Wn,"\n  query SandboxFaults($id: ID!) {\n    project(id: $id) { id name environment }\n    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":Mn,"\n  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {\n    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":Hn,"\n  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {\n    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)\n  }\n":Vn,"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":Qn,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":Gn,"\n  mutation Logout {\n    logout { revoked }\n  }\n":Jn,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":Yn,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":Xn,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":Zn,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":er,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":tr,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":nr,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":rr,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":ir,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":or,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":ar,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":sr,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":cr,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":dr,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":lr,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":ur,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":pr,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":hr,"\n  query AuditChain($org: ID!) {\n    organization(id: $org) {\n      id\n      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }\n    }\n  }\n":fr,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    project(id: $projectId) { id validationProfile }\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":gr,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":mr,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":yr,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":_r};function A(n){return vr[n]??{}}const Ir=A(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),br=A(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),$r=A(`
  mutation Logout {
    logout { revoked }
  }
`),kr=A(`
  mutation EndSession {
    endSession { ended }
  }
`),lt=A(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),Sr=A(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),wr=A(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),Ar=A(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),jr=A(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),Dr=A(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),Cr=A(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),Rr=A(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),Er=A(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),Pr=A(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),Tr=A(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),xr=A(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),Nr=A(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),qr=A(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),Lr=A(`
  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
    project(id: $id) {
      id name
      apiKeys(first: 200) { edges { node { id keyName status } } }
      usage(from: $from, to: $to, keyId: $keyId) {
        from to total keyId
        byOperation { operation count }
        daily { date operation count }
      }
    }
  }
`),Ur=A(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),Or=A(`
  query AuditChain($org: ID!) {
    organization(id: $org) {
      id
      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }
    }
  }
`),Kr=A(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),Br=A(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),zr=A(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),Fr=A(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);function W(n){const e=K(null);return Q(()=>{document.title=`${n.title} · einvoice`,e.current?.focus({preventScroll:!1})},[n.title]),t("section",{class:"page","aria-labelledby":"page-title",children:[t("div",{class:"page-head",children:[t("h1",{id:"page-title",tabIndex:-1,ref:e,children:n.title}),n.actions&&t("div",{class:"page-actions",children:n.actions})]}),n.lead&&t("p",{class:"lead",children:n.lead}),n.children]})}function B(n){return t("p",{class:"loading",role:"status","aria-live":"polite",children:[t("span",{class:"spinner","aria-hidden":"true"})," ",n.label??"Loading…"]})}function ce(n){return t("div",{class:"empty",children:n.children})}function z(n){return n.error?t("div",{class:"alert error",role:"alert",children:[t("p",{children:An(n.error)}),n.retry&&t("button",{type:"button",class:"secondary",onClick:n.retry,children:"Try again"})]}):null}function Gt(n){return t("div",{class:`alert ${n.kind??"ok"}`,role:"status",children:n.children})}let Wr=0;function Jt(n){const[e]=m(()=>`${n}-${++Wr}`);return e}function j({label:n,name:e,error:r,hint:i,...a}){const o=Jt(e),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("input",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&t("p",{class:"hint",id:`${o}-hint`,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function se({label:n,name:e,error:r,children:i,...a}){const o=Jt(e);return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("select",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function ne(n){if(!n.error)return null;const e=n.error;if(e instanceof x&&e.code==="invalid"){const r=e.fieldErrors(),i=Object.entries(r).filter(([a])=>!n.fields?.includes(a));return t("div",{class:"alert error",role:"alert",children:[t("p",{children:e.message}),i.length>0&&t("ul",{children:i.map(([a,o])=>t("li",{children:[t("code",{children:a||"request"}),": ",o]},a))})]})}return t(z,{error:e})}function re(n){return n instanceof x?n.fieldErrors():{}}function Dt(n){const e=K(null);return Q(()=>{const r=e.current;r&&(n.open&&!r.open&&r.showModal(),!n.open&&r.open&&r.close())},[n.open]),t("dialog",{ref:e,"aria-labelledby":"confirm-title",onClose:n.onClose,onCancel:n.onClose,children:[t("h2",{id:"confirm-title",children:n.title}),n.children,t("div",{class:"dialog-actions",children:[t("button",{type:"button",class:"secondary",onClick:n.onClose,children:"Cancel"}),t("button",{type:"button",class:n.danger?"danger":"",disabled:n.busy,onClick:n.onConfirm,children:n.confirm})]})]})}function Xe(n){const[e,r]=m("");return t("span",{class:"copy",children:[t("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(n.text),r("ok")}catch{r("fail")}},children:n.label??"Copy"}),t("span",{role:"status","aria-live":"polite",class:"copy-status",children:e==="ok"?"Copied":e==="fail"?"Copy failed: select the text and copy it":""})]})}function ee(n){return n?new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function N(n){return t("span",{class:`badge ${n.tone??"info"}`,children:n.children})}const Mr=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"},{path:"/invoices",label:"Invoices"},{path:"/webhooks",label:"Webhooks"},{path:"/sandbox",label:"Sandbox faults"}],Hr=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],ue="einvoice.org";function Vr(n){const e=n.next;return e&&e.startsWith("/")&&!e.startsWith("//")?e:"/"}function Qr(){const n=F(),[e,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const p=new FormData(d.currentTarget);a(!0),r(void 0);try{const l=await dt(br,{input:{email:String(p.get("email")),password:String(p.get("password"))}});st(l.login.accessToken,l.login.expiresIn,l.login.user),n.route(Vr(n.query),!0)}catch(l){r(l)}finally{a(!1)}},s=re(e);return t("div",{class:"auth",children:t(W,{title:"Log in to einvoice",children:[t("form",{onSubmit:o,noValidate:!0,children:[t(j,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),t(j,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),t(ne,{error:e,fields:["email","password"]}),t("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),t("p",{children:["New here? ",t("a",{href:"/signup",children:"Create an account"})]})]})})}function Gr(){const n=F(),[e,r]=m(),[i,a]=m(!1),[o,s]=m(""),[d,p]=m(!1),l=async u=>{u.preventDefault();const c=new FormData(u.currentTarget);a(!0),r(void 0);try{const f=await dt(Ir,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});st(f.signup.accessToken,f.signup.expiresIn,f.signup.user),f.signup.organization?(localStorage.setItem(ue,f.signup.organization.id),n.route(`/orgs/${f.signup.organization.id}/projects`,!0)):n.route("/",!0)}catch(f){r(f)}finally{a(!1)}},h=re(e);return t("div",{class:"auth",children:t(W,{title:"Create your einvoice account",children:[t("form",{onSubmit:l,noValidate:!0,children:[t(j,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:h.email}),t(j,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:h.password}),t(j,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:h.organizationName,onInput:u=>{d||s(Yt(u.currentTarget.value))}}),t(j,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:h.organizationSlug,onInput:u=>{p(!0),s(u.currentTarget.value)}}),t(ne,{error:e,fields:["email","password","organizationName","organizationSlug"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),t("p",{children:["Have an account? ",t("a",{href:"/login",children:"Log in"})]})]})})}function Yt(n){return n.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function Jr(){const n=F(),e=G(()=>R(lt),[]),[r,i]=m(),[a,o]=m(!1),[s,d]=m(""),p=async u=>{u.preventDefault();const c=new FormData(u.currentTarget);o(!0),i(void 0);try{const f=await R(Sr,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(ue,f.createOrganization.id),n.route(`/orgs/${f.createOrganization.id}/projects`)}catch(f){i(f)}finally{o(!1)}},l=re(r),h=e.data?.me.organizations.edges??[];return t(W,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[e.loading&&!e.data&&t(B,{}),t(z,{error:e.error,retry:e.reload}),e.data&&h.length===0&&t(ce,{children:"You belong to no organization yet. Create one below."}),h.length>0&&t("ul",{class:"cards",children:h.map(({node:u})=>t("li",{class:"card",children:[t("a",{href:`/orgs/${u.id}/projects`,onClick:()=>localStorage.setItem(ue,u.id),children:u.name}),t("span",{class:"muted",children:[" ",u.slug]})," ",t(N,{children:u.role.toLowerCase()})]},u.id))}),t("form",{onSubmit:p,class:"panel",noValidate:!0,children:[t("h2",{children:"New organization"}),t(j,{label:"Name",name:"name",required:!0,error:l.name,onInput:u=>d(Yt(u.currentTarget.value))}),t(j,{label:"Slug",name:"slug",required:!0,value:s,onInput:u=>d(u.currentTarget.value),error:l.slug}),t(ne,{error:r,fields:["name","slug"]}),t("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function he(n){const e=F(),r=`/projects/${n.projectId}`;return t(L,{children:[t("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[n.org&&t("a",{href:`/orgs/${n.org.id}/projects`,children:n.org.name}),n.org&&t("span",{"aria-hidden":"true",children:" / "}),t("span",{children:n.project??"Project"})]}),t("nav",{"aria-label":"Project",class:"tabs",children:Mr.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function Xt(n){const e=F(),r=`/orgs/${n.orgId}`;return t("nav",{"aria-label":"Organization",class:"tabs",children:[Hr.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path)),n.children]})}function Zt(n){const e=F(),i=G(()=>R(lt),[]).data?.me.organizations.edges??[];return i.length<2?null:t("div",{class:"switcher",children:[t("label",{for:"org-switch",children:"Switch organization"}),t("select",{id:"org-switch",value:n.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(ue,o),e.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>t("option",{value:a.id,children:a.name},a.id))})]})}function Yr(){const{params:n}=te(),e=n.orgId,r=F(),i=G(()=>R(wr,{id:e}),[e]),[a,o]=m(),[s,d]=m(!1);Q(()=>localStorage.setItem(ue,e),[e]);const p=i.data?.organization,l=async f=>{f.preventDefault();const g=new FormData(f.currentTarget);d(!0),o(void 0);try{const $=await R(Ar,{input:{organizationId:e,name:String(g.get("name")),environment:g.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${$.createProject.id}`)}catch($){o($)}finally{d(!1)}},h=re(a),u=p?.projects.edges??[],c=p&&p.role!=="MEMBER";return t(W,{title:p?`${p.name}: projects`:"Projects",actions:t(Zt,{orgId:e}),children:[t(Xt,{orgId:e}),i.loading&&!i.data&&t(B,{label:"Loading projects…"}),t(z,{error:i.error,retry:i.reload}),p&&u.length===0&&t(ce,{children:t("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),u.length>0&&t("ul",{class:"cards","aria-label":"Projects",children:u.map(({node:f})=>t("li",{class:"card",children:[t("a",{href:`/projects/${f.id}`,children:f.name})," ",t(N,{tone:f.environment==="PRODUCTION"?"warn":"info",children:f.environment.toLowerCase()})," ",!f.authority.configured&&t(N,{tone:"bad",children:"not configured"}),t("div",{class:"muted small",children:["Created ",ee(f.createdAt)]})]},f.id))}),c&&t("form",{onSubmit:l,class:"panel",noValidate:!0,children:[t("h2",{children:"New project"}),t(j,{label:"Project name",name:"name",required:!0,error:h.name}),t(se,{label:"Environment",name:"environment",error:h.environment,children:[t("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),t("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),t(ne,{error:a,fields:["name","environment"]}),t("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function Xr(){const{params:n}=te(),e=n.projectId,r=G(()=>R(jr,{id:e}),[e]),i=r.data?.project;return t(W,{title:i?i.name:"Project",children:[t(he,{projectId:e,org:i?.organization,project:i?.name}),r.loading&&!i&&t(B,{}),t(z,{error:r.error,retry:r.reload}),i&&t(L,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Environment"}),t("dd",{children:t(N,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),t("dt",{children:"Created"}),t("dd",{children:ee(i.createdAt)}),t("dt",{children:"Tax authority"}),t("dd",{children:i.authority.taxAuthorityCode}),t("dt",{children:"Business id"}),t("dd",{children:t("code",{children:i.authority.businessId??"—"})}),t("dt",{children:"Service id"}),t("dd",{children:t("code",{children:i.authority.serviceId??"—"})}),t("dt",{children:"Status"}),t("dd",{children:i.authority.configured?t(N,{tone:"ok",children:"configured"}):t(N,{tone:"bad",children:"not configured"})}),t("dt",{children:"API credentials"}),t("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),t("dt",{children:"QR encryption"}),t("dd",{children:i.authority.qrEncryption}),t("dt",{children:"Public key fingerprint"}),t("dd",{children:t("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&t(ei,{projectId:e,onSaved:r.reload}),i.environment==="SANDBOX"&&t("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const Zr=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function ei(n){const[e,r]=m(),[i,a]=m(!1),[o,s]=m(!1),d=async l=>{l.preventDefault();const h=l.currentTarget,u=new FormData(h),c=f=>{const g=String(u.get(f)??"").trim();return g===""?null:g};a(!0),r(void 0),s(!1);try{await R(Dr,{projectId:n.projectId,input:{taxAuthorityCode:String(u.get("taxAuthorityCode")??"NRS"),businessId:String(u.get("businessId")??""),serviceId:String(u.get("serviceId")??""),publicKey:String(u.get("publicKey")??""),certificate:String(u.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const f of["publicKey","certificate","apiKey","apiSecret"])h.elements.namedItem(f).value="";s(!0),n.onSaved()}catch(f){r(f)}finally{a(!1)}},p=re(e);return t("form",{class:"panel",onSubmit:d,noValidate:!0,children:[t("h2",{children:"Tax authority settings"}),t("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),t(j,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:p.taxAuthorityCode}),t(j,{label:"Business id",name:"businessId",required:!0,error:p.businessId,hint:"The UUID NRS gave your business."}),t(j,{label:"Service id",name:"serviceId",required:!0,error:p.serviceId,hint:"8 letters or digits."}),t(j,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:p.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),t(j,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:p.certificate}),t(j,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:p.apiKey,hint:"Given together with the API secret."}),t(j,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:p.apiSecret}),t(j,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:p.baseUrl}),t(j,{label:"QR encryption (optional)",name:"qrEncryption",error:p.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),t(ne,{error:e,fields:Zr}),o&&t(Gt,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),t("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function ti(){const{params:n}=te(),e=n.projectId,r=G(()=>R(Cr,{id:e}),[e]),[i,a]=m(),[o,s]=m(),[d,p]=m(),[l,h]=m("3600"),[u,c]=m(!1),[f,g]=m(),$=r.data?.project,b=$?.apiKeys.edges??[],S=async()=>{if(o){c(!0),g(void 0);try{const y=await R(Er,{projectId:e,keyId:o.id,graceSeconds:Number(l)});a({keyName:y.rotateApiKey.key.keyName,clientId:y.rotateApiKey.key.clientId,secret:y.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(y){g(y)}finally{c(!1)}}},_=async()=>{if(d){c(!0),g(void 0);try{await R(Pr,{projectId:e,keyId:d.id}),p(void 0),r.reload()}catch(y){g(y)}finally{c(!1)}}};return t(W,{title:$?`${$.name}: API keys`:"API keys",children:[t(he,{projectId:e,project:$?.name}),r.loading&&!$&&t(B,{label:"Loading keys…"}),t(z,{error:r.error,retry:r.reload}),i&&t(ni,{r:i,onDone:()=>a(void 0)}),t(z,{error:f}),$&&b.length===0&&t(ce,{children:"No API keys yet. Create one to call the API from your systems."}),b.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:t("table",{children:[t("caption",{class:"sr-only",children:"API keys"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Name"}),t("th",{scope:"col",children:"Client id"}),t("th",{scope:"col",children:"Secret"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Last used"}),t("th",{scope:"col",children:t("span",{class:"sr-only",children:"Actions"})})]})}),t("tbody",{children:b.map(({node:y})=>t("tr",{children:[t("th",{scope:"row",children:[y.keyName,t("div",{class:"muted small",children:y.scopes.length===r.data.apiKeyScopes.length?"all scopes":y.scopes.join(", ")})]}),t("td",{children:t("code",{children:y.clientId})}),t("td",{children:t("code",{children:["…",y.secretLast4]})}),t("td",{children:[t(N,{tone:y.status==="ACTIVE"?"ok":"bad",children:y.status.toLowerCase()}),y.rotatedAt&&t("div",{class:"muted small",children:["rotated ",ee(y.rotatedAt)]})]}),t("td",{children:ee(y.lastUsedAt)}),t("td",{class:"row-actions",children:y.status==="ACTIVE"&&t(L,{children:[t("button",{type:"button",class:"secondary",onClick:()=>s({id:y.id,name:y.keyName}),"aria-label":`Rotate ${y.keyName}`,children:"Rotate"}),t("button",{type:"button",class:"danger",onClick:()=>p({id:y.id,name:y.keyName}),"aria-label":`Revoke ${y.keyName}`,children:"Revoke"})]})})]},y.id))})]})}),r.data&&t(ri,{projectId:e,scopes:r.data.apiKeyScopes,onCreated:y=>{a(y),r.reload()}}),t(Dt,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:u,onConfirm:S,onClose:()=>s(void 0),children:[t("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),t(se,{label:"Grace period for the old secret",name:"grace",value:l,onChange:y=>h(y.currentTarget.value),children:[t("option",{value:"0",children:"None: the old secret stops now"}),t("option",{value:"3600",children:"1 hour"}),t("option",{value:"86400",children:"1 day"}),t("option",{value:"604800",children:"7 days"})]})]}),t(Dt,{open:!!d,title:`Revoke ${d?.name??""}?`,confirm:"Revoke key",danger:!0,busy:u,onConfirm:_,onClose:()=>p(void 0),children:t("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function ni(n){return t("section",{class:"panel secret","aria-labelledby":"secret-title",children:[t("h2",{id:"secret-title",tabIndex:-1,ref:e=>e?.focus(),children:[n.r.rotated?"New secret":"Your new key",": ",n.r.keyName]}),t("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),t("dl",{class:"facts",children:[t("dt",{children:"Client id (X-Client-Id)"}),t("dd",{children:[t("code",{"data-testid":"client-id",children:n.r.clientId})," ",t(Xe,{text:n.r.clientId,label:"Copy client id"})]}),t("dt",{children:"Client secret (X-Client-Secret)"}),t("dd",{children:[t("code",{"data-testid":"client-secret",class:"wrap",children:n.r.secret})," ",t(Xe,{text:n.r.secret,label:"Copy secret"})]})]}),t("button",{type:"button",onClick:n.onDone,children:"I have stored the secret"})]})}function ri(n){const[e,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const p=d.currentTarget,l=new FormData(p),h=l.getAll("scopes").map(String);a(!0),r(void 0);try{const u=await R(Rr,{input:{projectId:n.projectId,keyName:String(l.get("keyName")),scopes:h.length?h:null}});p.reset(),n.onCreated({keyName:u.createApiKey.key.keyName,clientId:u.createApiKey.key.clientId,secret:u.createApiKey.clientSecret,rotated:!1})}catch(u){r(u)}finally{a(!1)}},s=re(e);return t("form",{class:"panel",onSubmit:o,noValidate:!0,children:[t("h2",{children:"New API key"}),t(j,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),t("fieldset",{children:[t("legend",{children:"Scopes (none ticked: every scope)"}),t("div",{class:"checks",children:n.scopes.map(d=>t("label",{class:"check",children:[t("input",{type:"checkbox",name:"scopes",value:d})," ",t("code",{children:d})]},d))}),s.scopes&&t("p",{class:"field-error",children:s.scopes})]}),t(ne,{error:e,fields:["keyName","scopes"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const Ze=n=>n==="PASSED"?"ok":n==="FAILED"||n==="CANCELLED"?"bad":n==="RETRYING"?"warn":"info";function ii(){const{params:n}=te(),e=n.projectId,[r,i]=m([]),a=r[r.length-1],o=G(()=>R(Tr,{id:e,after:a??null}),[e,a]),s=o.data?.project,d=s?.certificationRuns.edges??[];return t(W,{title:s?`${s.name}: certification`:"Certification",children:[t(he,{projectId:e,project:s?.name}),t("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&t(ai,{projectId:e,configured:s.authority.configured}),t("h2",{children:"Past runs"}),o.loading&&!s&&t(B,{label:"Loading runs…"}),t(z,{error:o.error,retry:o.reload}),s&&d.length===0&&t(ce,{children:"No runs yet."}),d.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:t("table",{children:[t("caption",{class:"sr-only",children:"Certification runs"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Run"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Type"}),t("th",{scope:"col",children:"Issue date"}),t("th",{scope:"col",children:"Started"})]})}),t("tbody",{children:d.map(({node:p})=>t("tr",{children:[t("th",{scope:"row",children:[t("a",{href:`/projects/${e}/certification/${p.id}`,children:p.id.slice(0,8)}),p.failureReason&&t("div",{class:"muted small",children:p.failureReason})]}),t("td",{children:t(N,{tone:Ze(p.status),children:p.status.toLowerCase()})}),t("td",{children:p.invoiceType}),t("td",{children:p.issueDate}),t("td",{children:ee(p.createdAt)})]},p.id))})]})}),t("div",{class:"pager",children:[r.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function oi(){return new Date().toISOString().slice(0,10)}function ai(n){const e=F(),[r,i]=m(),[a,o]=m(!1),[s,d]=m(),p=async h=>{h.preventDefault();const u=new FormData(h.currentTarget),c=String(u.get("invoicePayload")??"").trim();let f=null;if(d(void 0),c)try{f=JSON.parse(c)}catch(g){d(`Not valid JSON: ${g.message}`);return}o(!0),i(void 0);try{const g=await R(xr,{input:{projectId:n.projectId,invoiceType:String(u.get("invoiceType")),issueDate:String(u.get("issueDate")),invoicePayload:f}});e.route(`/projects/${n.projectId}/certification/${g.startCertificationRun.id}`)}catch(g){i(g)}finally{o(!1)}},l=re(r);return t("form",{class:"panel",onSubmit:p,noValidate:!0,children:[t("h2",{children:"Start a run"}),!n.configured&&t("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),t("div",{class:"row",children:[t(se,{label:"Invoice type",name:"invoiceType",error:l.invoiceType,children:[t("option",{value:"B2B",children:"B2B: to a business"}),t("option",{value:"B2C",children:"B2C: to a consumer"}),t("option",{value:"B2G",children:"B2G: to a government body"})]}),t(j,{label:"Issue date",name:"issueDate",type:"date",value:oi(),required:!0,error:l.issueDate})]}),t("div",{class:`field${s||l.invoicePayload?" invalid":""}`,children:[t("label",{for:"run-payload",children:"Invoice JSON (optional)"}),t("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),t("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||l.invoicePayload)&&t("p",{class:"field-error",children:s??l.invoicePayload})]}),t(ne,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),t("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function si(){const{params:n}=te(),{projectId:e,runId:r}=n,[i,a]=m(),[o,s]=m(),[d,p]=m(!1);return Q(()=>{let l;return a(void 0),s(void 0),R(Nr,{id:r}).then(h=>{a(h.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(h.certificationRun.status)&&(p(!0),l=Tn(qr,{id:r},c=>a(c.certificationRunUpdated),c=>{p(!1),c&&s(c)}))},s),()=>l?.()},[r]),t(W,{title:`Certification run ${r.slice(0,8)}`,children:[t(he,{projectId:e}),t("p",{children:t("a",{href:`/projects/${e}/certification`,children:"All runs"})}),!i&&!o&&t(B,{label:"Loading the run…"}),t(z,{error:o}),i&&t(L,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Status"}),t("dd",{children:[t("span",{"data-testid":"run-status",children:t(N,{tone:Ze(i.status),children:i.status.toLowerCase()})})," ",d&&t("span",{class:"muted small",role:"status",children:"live"})]}),t("dt",{children:"Invoice type"}),t("dd",{children:i.invoiceType}),t("dt",{children:"Issue date"}),t("dd",{children:i.issueDate}),t("dt",{children:"IRN"}),t("dd",{children:t("code",{children:i.irn??"—"})}),i.failureReason&&t(L,{children:[t("dt",{children:"Why it failed"}),t("dd",{children:i.failureReason})]}),t("dt",{children:"Workflow"}),t("dd",{children:i.temporal.uiUrl?t("a",{href:i.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[i.temporal.workflowId," in the Temporal UI"]}):t("code",{children:i.temporal.workflowId})})]}),t("h2",{children:"Steps"}),i.steps.length===0&&t(ce,{children:"No step has started yet."}),t("ol",{class:"steps","aria-live":"polite",children:i.steps.map(l=>t("li",{class:"step",children:t("details",{children:[t("summary",{children:[t(N,{tone:Ze(l.status),children:l.status.toLowerCase()})," ",t("strong",{children:l.name}),l.durationMs!=null&&t("span",{class:"muted small",children:[" ",l.durationMs," ms"]})]}),t("dl",{class:"facts small",children:[t("dt",{children:"Attempts"}),t("dd",{children:l.attempts}),t("dt",{children:"Started"}),t("dd",{children:ee(l.startedAt)}),t("dt",{children:"Finished"}),t("dd",{children:ee(l.finishedAt)}),t("dt",{children:"HTTP status"}),t("dd",{children:l.httpStatus??"—"}),t("dt",{children:"NRS error id"}),t("dd",{children:l.nrsErrorId??"—"}),t("dt",{children:"Message"}),t("dd",{children:l.message||"—"})]})]})},l.name))})]})]})}const je=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Ne(n){return n.toISOString().slice(0,10)}function ci(){const{params:n}=te(),e=n.projectId,[r,i]=m(()=>Ne(new Date(Date.now()-29*864e5))),[a,o]=m(()=>Ne(new Date)),[s,d]=m(""),p=G(()=>R(Lr,{id:e,from:r||null,to:a||null,keyId:s||null}),[e,r,a,s]),l=p.data?.project,h=l?.usage;return t(W,{title:l?`${l.name}: usage`:"Usage",children:[t(he,{projectId:e,project:l?.name}),t("form",{class:"filters",onSubmit:u=>u.preventDefault(),"aria-label":"Usage filters",children:[t(se,{label:"API key",name:"keyId",value:s,onChange:u=>d(u.currentTarget.value),children:[t("option",{value:"",children:"All keys"}),l?.apiKeys.edges.map(({node:u})=>t("option",{value:u.id,children:[u.keyName,u.status==="REVOKED"?" (revoked)":""]},u.id))]}),t(j,{label:"From",name:"from",type:"date",value:r,onChange:u=>i(u.currentTarget.value)}),t(j,{label:"To",name:"to",type:"date",value:a,onChange:u=>o(u.currentTarget.value)}),t("button",{type:"button",class:"secondary",onClick:p.reload,children:"Refresh"})]}),p.loading&&!h&&t(B,{label:"Loading usage…"}),t(z,{error:p.error,retry:p.reload}),h&&t(L,{children:[t("p",{children:[t("strong",{"data-testid":"usage-total",children:h.total})," calls from ",h.from," to ",h.to,p.loading&&t("span",{class:"muted small",children:" (updating…)"})]}),h.total===0?t(ce,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):t(di,{from:h.from,to:h.to,daily:h.daily,operations:h.byOperation.map(u=>u.operation)}),h.byOperation.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:t("table",{children:[t("caption",{children:"Calls per operation"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Operation"}),t("th",{scope:"col",class:"num",children:"Calls"})]})}),t("tbody",{children:h.byOperation.map(u=>t("tr",{children:[t("th",{scope:"row",children:t("code",{children:u.operation})}),t("td",{class:"num",children:u.count})]},u.operation))})]})})]})]})}function di(n){const e=[];for(let u=new Date(`${n.from}T00:00:00Z`);Ne(u)<=n.to&&e.length<400;u=new Date(u.getTime()+864e5))e.push(Ne(u));const r=[...n.operations].sort(),i=new Map;for(const u of n.daily)i.has(u.date)||i.set(u.date,new Map),i.get(u.date).set(u.operation,u.count);const a=e.map(u=>[...i.get(u)?.values()??[]].reduce((c,f)=>c+f,0)),o=Math.max(1,...a),s=720,d=220,p=28,l=(s-p)/e.length,h=e.map((u,c)=>a[c]?`${u}: ${a[c]}`:"").filter(Boolean).join("; ");return t("figure",{class:"chart",children:[t("svg",{viewBox:`0 0 ${s} ${d+20}`,role:"img","aria-label":`Calls per day. ${h}`,"data-testid":"usage-chart",children:[t("line",{x1:p,y1:d,x2:s,y2:d,class:"axis"}),t("text",{x:p-4,y:12,class:"tick","text-anchor":"end",children:o}),t("text",{x:p-4,y:d,class:"tick","text-anchor":"end",children:"0"}),e.map((u,c)=>{let f=d;return t("g",{children:[r.map((g,$)=>{const b=i.get(u)?.get(g)??0;if(!b)return null;const S=b/o*(d-16);return f-=S,t("rect",{x:p+c*l+1,y:f,width:Math.max(1,l-2),height:S,fill:je[$%je.length],children:t("title",{children:[u," ",g,": ",b]})},g)}),(c===0||c===e.length-1||e.length<=14&&c%2===0)&&t("text",{x:p+c*l+l/2,y:d+14,class:"tick","text-anchor":"middle",children:u.slice(5)})]},u)})]}),t("figcaption",{children:t("ul",{class:"legend",children:r.map((u,c)=>t("li",{children:[t("svg",{width:"12",height:"12","aria-hidden":"true",children:t("rect",{width:"12",height:"12",fill:je[c%je.length]})})," ",u]},u))})})]})}function li(){const{params:n}=te(),e=n.orgId,[r,i]=m(""),[a,o]=m([]),s=a[a.length-1],d=G(()=>R(Ur,{org:e,action:r||null,after:s??null}),[e,r,s]),p=G(()=>R(Or,{org:e}),[e]),l=p.data?.organization.auditChain.brokenEntryId??null,h=d.data?.auditLogs.edges??[];return t(W,{title:"Audit log",actions:t(Zt,{orgId:e}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[t(Xt,{orgId:e}),t(ui,{chain:p.data?.organization.auditChain,loading:p.loading,error:p.error,reload:p.reload,brokenOnPage:l!==null&&h.some(u=>u.node.id===l)}),t("form",{class:"filters",onSubmit:u=>u.preventDefault(),"aria-label":"Audit filters",children:t(se,{label:"Action",name:"action",value:r,onChange:u=>{i(u.currentTarget.value),o([])},children:[t("option",{value:"",children:"All actions"}),d.data?.auditActions.map(u=>t("option",{value:u,children:u},u))]})}),d.loading&&!d.data&&t(B,{label:"Loading the audit log…"}),t(z,{error:d.error,retry:d.reload}),d.data&&h.length===0&&t(ce,{children:["No entries",r?` for ${r}`:"","."]}),h.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:t("table",{"data-testid":"audit-table",children:[t("caption",{class:"sr-only",children:"Audit entries"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"When"}),t("th",{scope:"col",children:"Action"}),t("th",{scope:"col",children:"Actor"}),t("th",{scope:"col",children:"Target"}),t("th",{scope:"col",children:"From"}),t("th",{scope:"col",children:"Hash"})]})}),t("tbody",{children:h.map(({node:u})=>t("tr",{class:u.id===l?"broken":void 0,"data-entry":u.id,children:[t("td",{children:ee(u.createdAt)}),t("th",{scope:"row",children:[t("code",{children:u.action}),u.id===l&&t("div",{children:t(N,{tone:"bad",children:"chain breaks here"})})]}),t("td",{children:[u.actor.type," ",t("code",{class:"small",children:u.actor.id.slice(0,8)})]}),t("td",{children:[u.target.type," ",t("code",{class:"small",children:u.target.id.slice(0,8)})]}),t("td",{class:"small",children:[u.ip,t("div",{class:"muted",children:u.requestId.slice(0,8)})]}),t("td",{children:t("code",{class:"small",title:`previous ${u.prevHash}`,children:u.hash.slice(0,12)})})]},u.id))})]})}),t("div",{class:"pager",children:[a.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),d.data?.auditLogs.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>o([...a,d.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function ui(n){const e=n.chain,r=n.loading;return t("section",{class:"panel chain","aria-labelledby":"chain-title","aria-busy":r?"true":"false","data-testid":"audit-chain",children:[t("div",{class:"chain-head",children:[t("h2",{id:"chain-title",children:"Hash chain"}),(e||n.error)&&t("button",{type:"button",class:"secondary",onClick:n.reload,disabled:r,children:r?"Verifying…":"Verify again"})]}),r&&!e&&t(B,{label:"Verifying the hash chain…"}),t(z,{error:n.error}),e&&!n.error&&t(L,{children:[e.valid?t("div",{class:"verdict ok",role:"status","data-testid":"chain-verdict","data-state":"verified",children:t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✓ "}),"Verified."]})," ",e.entries===0?"The chain is empty: nothing has been recorded yet.":`All ${e.entries} ${e.entries===1?"entry carries its":"entries carry their"} keyed hash and link to the one before, and the head names the newest.`]})}):t("div",{class:"verdict bad",role:"alert","data-testid":"chain-verdict","data-state":"broken",children:[t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✗ "}),"Broken:"]})," ",t("span",{"data-testid":"chain-problem",children:e.problem})]}),e.brokenEntryId&&t("p",{children:["First entry at fault: ",t("code",{class:"wrap","data-testid":"chain-broken-entry",children:e.brokenEntryId})," ",n.brokenOnPage?"(marked in the entries below).":"(not on this page: clear the filter or page through older entries)."]}),t("p",{class:"small",children:"The log can no longer prove its history. Keep the entries as they are and investigate."})]}),t("dl",{class:"facts",children:[t("dt",{children:"Entries"}),t("dd",{"data-testid":"chain-entries",children:e.entries}),t("dt",{children:"Head"}),t("dd",{children:e.headSeq===0?"none yet":t(L,{children:["entry ",t("span",{"data-testid":"chain-head-seq",children:e.headSeq}),","," ",t("code",{class:"wrap","data-testid":"chain-head-hash",children:e.headHash})," ",t(Xe,{text:e.headHash,label:"Copy head hash"})]})}),t("dt",{children:"Verified"}),t("dd",{children:t("time",{dateTime:e.verifiedAt,children:pi(e.verifiedAt)})})]}),e.headSeq>0&&t("p",{class:"hint",children:["Keep the head's position and hash: a later chain whose entry ",e.headSeq," has another hash, or is gone, was rewritten or truncated. Verifications are reused for 10 seconds."]})]})]})}function pi(n){return new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"medium"})}function en(n){return n.map(String).join("\0")}function hi(n){const e=[],r=new Map,i=(a,o,s,d,p)=>{const l=e.length;if(Array.isArray(a)&&a.length>0)e.push(`${s}${d}[`),a.forEach((h,u)=>i(h,[...o,u],`${s}  `,"",u<a.length-1?",":"")),e.push(`${s}]${p}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const h=Object.entries(a);e.push(`${s}${d}{`),h.forEach(([u,c],f)=>i(c,[...o,u],`${s}  `,`${JSON.stringify(u)}: `,f<h.length-1?",":"")),e.push(`${s}}${p}`)}else e.push(`${s}${d}${JSON.stringify(a)}${p}`);r.set(en(o),[l,e.length-1])};return i(n,[],"","",""),{lines:e,spans:r}}function fi(n,e){for(let r=e.length;r>=0;r--){const i=n.get(en(e.slice(0,r)));if(i)return r===e.length?i:[i[0],i[0]]}}function gi(n){const{lines:e,spans:r}=hi(n.value),i=new Map;for(const a of n.marks){const o=fi(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return t("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:t("ol",{children:e.map((a,o)=>{const s=i.get(o);return t("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[t("code",{children:a}),s&&s.length>0&&t("span",{class:"sr-only",children:[" problem: ",s.map(d=>d.label).join("; ")]})]},o)})})})}function ze(n){if(!n.trim())return{error:"Paste or upload an invoice first."};try{const e=JSON.parse(n);return!e||typeof e!="object"||Array.isArray(e)?{error:"The invoice must be a JSON object."}:{value:e}}catch(e){return{error:`Not valid JSON: ${e.message}`}}}function Ct(n){const e=n.map(r=>typeof r=="number"?r:String(r));return e[0]==="input"&&e[1]==="payload"?e.slice(2):e}function mi(){const{params:n}=te(),e=n.projectId,[r,i]=m(""),[a,o]=m("B2B"),[s,d]=m(""),[p,l]=m(),[h,u]=m(),[c,f]=m(),[g,$]=m(),[b,S]=m(),[_,y]=m(""),[q,U]=m(),[H,ie]=m(""),[J,C]=m("");Q(()=>()=>{b&&URL.revokeObjectURL(b)},[b]);const P=v=>{i(v);const{value:w}=ze(v);w&&(typeof w.issue_date=="string"&&C(w.issue_date),typeof w.irn=="string"&&ie(w.irn.split("-").slice(0,-2).join("-")||w.irn),typeof w.invoice_kind=="string"&&o(w.invoice_kind.toUpperCase()))},O=async(v,w)=>{y(v),U(void 0);try{await w()}catch(M){U(M)}finally{y("")}},nn=()=>{const{value:v,error:w}=ze(r);l(w),v&&O("validate",async()=>{const M=await R(Kr,{projectId:e,input:{invoiceTypeCode:a,taxAuthorityCode:"NRS",payload:v,profile:s==="NRS"||s==="STRICT"?s:null}});u({value:v,report:M.validateInvoice,profile:M.project.validationProfile})})},rn=v=>{v.preventDefault(),O("irn",async()=>{const w=await R(Br,{projectId:e,input:{invoiceReference:H,invoiceTypeCode:a,taxAuthorityCode:"NRS",issueDate:J}});f(w.generateIrn);const M=await R(zr,{projectId:e,input:{irn:w.generateIrn.irn}});$(M.invoiceQrCode)})},on=()=>{const{value:v,error:w}=ze(r);l(w),v&&O("render",async()=>{const M=await R(Fr,{projectId:e,input:{invoiceType:a,payload:v}});if(!M.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const sn=Uint8Array.from(atob(M.renderInvoice.pdfBase64),cn=>cn.charCodeAt(0));S(URL.createObjectURL(new Blob([sn],{type:"application/pdf"})))})},an=async v=>{const w=v.currentTarget.files?.[0];if(w){if(w.size>9e5){l("The file is larger than the 900 KB an invoice may be.");return}P(await w.text())}},Ue=h?[...h.report.errors,...h.report.warnings]:[],ut=re(q);return t(W,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[t(he,{projectId:e}),t("div",{class:"workbench",children:[t("div",{class:"panel",children:[t("div",{class:"row",children:[t(se,{label:"Invoice kind",name:"kind",value:a,onChange:v=>o(v.currentTarget.value),children:[t("option",{value:"B2B",children:"B2B"}),t("option",{value:"B2C",children:"B2C"}),t("option",{value:"B2G",children:"B2G"})]}),t(se,{label:"Validation profile",name:"profile",value:s,onChange:v=>d(v.currentTarget.value),children:[t("option",{value:"",children:"The project's profile"}),t("option",{value:"NRS",children:"NRS: what NRS refuses is an error"}),t("option",{value:"STRICT",children:"Strict: consistency checks are errors too"})]}),t("div",{class:"field",children:[t("label",{for:"wb-file",children:"Upload a JSON file"}),t("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:an})]})]}),t("div",{class:`field${p?" invalid":""}`,children:[t("label",{for:"wb-json",children:"Invoice JSON"}),t("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:r,"aria-invalid":p?"true":void 0,"aria-describedby":p?"wb-json-error":void 0,onInput:v=>P(v.currentTarget.value)}),p&&t("p",{class:"field-error",id:"wb-json-error",children:p})]}),t("div",{class:"buttons",children:[t("button",{type:"button",onClick:nn,disabled:!!_,children:_==="validate"?"Validating…":"Validate"}),t("button",{type:"button",class:"secondary",onClick:on,disabled:!!_,children:_==="render"?"Rendering…":"Preview PDF"})]}),t(ne,{error:q,fields:["invoiceReference","issueDate"]})]}),h&&t("section",{class:"panel","aria-labelledby":"wb-result",children:[t("h2",{id:"wb-result",tabIndex:-1,ref:v=>v?.focus(),children:[h.report.valid?t(N,{tone:"ok",children:"valid"}):t(N,{tone:"bad",children:"invalid"})," ",h.report.errors.length," errors, ",h.report.warnings.length," warnings"]}),t("p",{class:"muted small",children:["Schema ",h.report.schemaVersion,", rules ",h.report.ruleset,s===""&&`, the project's profile (${h.profile.toLowerCase()})`]}),Ue.length>0&&t("ol",{class:"issues","data-testid":"issues",children:Ue.map((v,w)=>{const M=Ct(v.loc);return t("li",{class:v.severity,children:[t(N,{tone:v.severity==="error"?"bad":"warn",children:v.severity})," ",t("code",{children:M.join(".")||"(invoice)"}),": ",v.message," ",t("span",{class:"muted small",children:v.rule})," ",t("a",{href:`#line-issue-${w}`,children:"show"})]},w)})}),t(gi,{value:h.value,marks:Ue.map((v,w)=>({path:Ct(v.loc),label:v.message,id:`issue-${w}`}))})]}),t("form",{class:"panel",onSubmit:rn,noValidate:!0,children:[t("h2",{children:"IRN and QR code"}),t("div",{class:"row",children:[t(j,{label:"Invoice reference",name:"invoiceReference",value:H,onInput:v=>ie(v.currentTarget.value),error:ut.invoiceReference}),t(j,{label:"Issue date",name:"issueDate",type:"date",value:J,onInput:v=>C(v.currentTarget.value),error:ut.issueDate})]}),t("button",{type:"submit",disabled:!!_,children:_==="irn"?"Generating…":"Generate IRN and QR"}),c&&t(Gt,{children:["IRN ",t("code",{"data-testid":"irn",children:c.irn})]}),g&&t("div",{class:"qr",children:[g.qrPngBase64&&t("img",{src:`data:image/png;base64,${g.qrPngBase64}`,alt:`QR code of ${g.irn}`,width:180,height:180}),t("p",{class:"small",children:["Encrypted payload (",g.encryption,", key ",g.keyFingerprint.slice(0,16),"…):"]}),t("code",{class:"wrap small",children:g.qrPayload})]})]}),b&&t("section",{class:"panel","aria-labelledby":"wb-pdf",children:[t("h2",{id:"wb-pdf",children:"PDF preview"}),t("iframe",{src:b,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf",onLoad:v=>{v.currentTarget.dataset.loaded="true"}},b),t("p",{children:t("a",{href:b,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function tn(n){return t(W,{title:n.error?"Something went wrong":"Page not found",children:[n.error?t(z,{error:n.error}):t("p",{children:"There is nothing at this address."}),t("p",{children:t("a",{href:"/",children:"Go to your projects"})})]})}const yi=ke(()=>pe(()=>import("./invoices-BqxCD_G0.js"),__vite__mapDeps([0,1])).then(n=>n.Invoices)),_i=ke(()=>pe(()=>import("./invoices-BqxCD_G0.js"),__vite__mapDeps([0,1])).then(n=>n.InvoiceDetail)),vi=ke(()=>pe(()=>import("./webhooks-B9gEsqK9.js"),__vite__mapDeps([2,1])).then(n=>n.Webhooks)),Ii=ke(()=>pe(()=>import("./webhooks-B9gEsqK9.js"),__vite__mapDeps([2,1])).then(n=>n.WebhookDeliveries)),bi=ke(()=>pe(()=>import("./faults-X-4uRa4y.js"),__vite__mapDeps([3,1])).then(n=>n.SandboxFaults)),$i=["/login","/signup"];function ki(){return t($e,{children:t(Si,{})})}function Si(){const n=Dn(Z),e=F();Q(()=>{n.status==="unknown"&&Le()},[n.status]);const r=$i.includes(e.path);return Q(()=>{if(n.status==="signedOut"&&!r){const i=e.url!=="/"?`?next=${encodeURIComponent(e.url)}`:"";e.route(`/login${i}`,!0)}},[n.status,r,e.url]),n.status==="unknown"?t("main",{id:"main",class:"center",children:t(B,{label:"Signing you in…"})}):r||n.status!=="signedIn"?t("main",{id:"main",class:"center",children:t(Ve,{children:[t(T,{path:"/login",component:Qr}),t(T,{path:"/signup",component:Gr}),t(T,{default:!0,component:()=>t(B,{})})]})}):t(ji,{email:n.user?.email??"",children:t(Ve,{children:[t(T,{path:"/",component:wi}),t(T,{path:"/orgs",component:Jr}),t(T,{path:"/orgs/:orgId/projects",component:Yr}),t(T,{path:"/orgs/:orgId/audit",component:li}),t(T,{path:"/projects/:projectId",component:Xr}),t(T,{path:"/projects/:projectId/keys",component:ti}),t(T,{path:"/projects/:projectId/certification",component:ii}),t(T,{path:"/projects/:projectId/certification/:runId",component:si}),t(T,{path:"/projects/:projectId/usage",component:ci}),t(T,{path:"/projects/:projectId/workbench",component:mi}),t(T,{path:"/projects/:projectId/invoices",component:yi}),t(T,{path:"/projects/:projectId/invoices/:invoiceId",component:_i}),t(T,{path:"/projects/:projectId/webhooks",component:vi}),t(T,{path:"/projects/:projectId/webhooks/:endpointId",component:Ii}),t(T,{path:"/projects/:projectId/sandbox",component:bi}),t(T,{default:!0,component:tn})]})})}function wi(){const n=F(),e=G(()=>R(lt),[]);return Q(()=>{const r=e.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!e.data)return;const i=localStorage.getItem(ue),a=r.find(o=>o===i)??r[0];n.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[e.data]),e.error?t(tn,{error:e.error}):t(B,{})}async function Ai(n){Pn();try{await R($r)}catch{}try{await dt(kr,{})}catch{}ct(),n("/login")}function ji(n){const e=F();return t(L,{children:[t("a",{class:"skip",href:"#main",children:"Skip to content"}),t("header",{class:"top",children:[t("a",{class:"brand",href:"/",children:"einvoice"}),t("nav",{"aria-label":"Account",class:"account",children:[t("a",{href:"/orgs","aria-current":e.path==="/orgs"?"page":void 0,children:"Organizations"}),t("span",{class:"email",title:n.email,children:n.email}),t("button",{type:"button",class:"secondary",onClick:()=>{Ai(e.route)},children:"Log out"})]})]}),t("main",{id:"main",children:n.children})]})}gn(t(ki,{}),document.getElementById("app"));export{x as A,N as B,Xe as C,z as E,j as F,B as L,Gt as N,he as P,L as S,t as a,ce as b,W as c,m as d,G as e,ee as f,se as g,Q as h,Dt as i,re as j,ne as k,A as l,R as r,Tn as s,te as u};
