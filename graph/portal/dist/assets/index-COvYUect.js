const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/invoices-D0Blx5qw.js","assets/ops-submission-W2GKTVJr.js","assets/webhooks-D-C9fbTg.js","assets/faults-DNEYM5NC.js","assets/inbox-BuP-Ktqe.js"])))=>i.map(i=>d[i]);
var Ie,k,Et,Y,ht,Pt,Tt,Be,Ae,ye,xt,tt,We,Me,Nt,Ee={},Pe=[],pn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,be=Array.isArray;function Q(n,e){for(var r in e)n[r]=e[r];return n}function nt(n){n&&n.parentNode&&n.parentNode.removeChild(n)}function X(n,e,r){var i,a,o,s={};for(o in e)o=="key"?i=e[o]:o=="ref"?a=e[o]:s[o]=e[o];if(arguments.length>2&&(s.children=arguments.length>3?Ie.call(arguments,2):r),typeof n=="function"&&n.defaultProps!=null)for(o in n.defaultProps)s[o]===void 0&&(s[o]=n.defaultProps[o]);return _e(n,s,i,a,null)}function _e(n,e,r,i,a){var o={type:n,props:e,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++Et,__i:-1,__u:0};return a==null&&k.vnode!=null&&k.vnode(o),o}function L(n){return n.children}function Ce(n,e){this.props=n,this.context=e}function oe(n,e){if(e==null)return n.__?oe(n.__,n.__i+1):null;for(var r;e<n.__k.length;e++)if((r=n.__k[e])!=null&&r.__e!=null)return r.__e;return typeof n.type=="function"?oe(n):null}function hn(n){if(n.__P&&n.__d){var e=n.__v,r=e.__e,i=[],a=[],o=Q({},e);o.__v=e.__v+1,k.vnode&&k.vnode(o),rt(n.__P,o,e,n.__n,n.__P.namespaceURI,32&e.__u?[r]:null,i,r??oe(e),!!(32&e.__u),a),o.__v=e.__v,o.__.__k[o.__i]=o,Kt(i,o,a),e.__e=e.__=null,o.__e!=r&&qt(o)}}function qt(n){if((n=n.__)!=null&&n.__c!=null)return n.__e=n.__c.base=null,n.__k.some(function(e){if(e!=null&&e.__e!=null)return n.__e=n.__c.base=e.__e}),qt(n)}function He(n){(!n.__d&&(n.__d=!0)&&Y.push(n)&&!Te.__r++||ht!=k.debounceRendering)&&((ht=k.debounceRendering)||Pt)(Te)}function Te(){try{for(var n,e=1;Y.length;)Y.length>e&&Y.sort(Tt),n=Y.shift(),e=Y.length,hn(n)}finally{Y.length=Te.__r=0}}function Lt(n,e,r,i,a,o,s,l,p,u,h){var d,c,f,g,I,S,$=i&&i.__k||Pe,b=e.length;for(p=fn(r,e,$,p,b),d=0;d<b;d++)(f=r.__k[d])!=null&&(c=f.__i!=-1&&$[f.__i]||Ee,f.__i=d,S=rt(n,f,c,a,o,s,l,p,u,h),g=f.__e,f.ref&&c.ref!=f.ref&&(c.ref&&it(c.ref,null,f),h.push(f.ref,f.__c||g,f)),I==null&&g!=null&&(I=g),4&f.__u?(p=Ut(f,p,n),c.__e&&(c.__e=null)):typeof f.type=="function"&&S!==void 0?p=S:g&&(p=g.nextSibling),f.__u&=-7);return r.__e=I,p}function fn(n,e,r,i,a){var o,s,l,p,u,h=r.length,d=h,c=0;for(n.__k=new Array(a),o=0;o<a;o++)(s=e[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=n.__k[o]=_e(null,s,null,null,null):be(s)?s=n.__k[o]=_e(L,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=n.__k[o]=_e(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):n.__k[o]=s,p=o+c,s.__=n,s.__b=n.__b+1,l=null,(u=s.__i=mn(s,r,p,d))!=-1&&(d--,(l=r[u])&&(l.__u|=2)),l==null||l.__v==null?(u==-1&&(a>h?c--:a<h&&c++),typeof s.type!="function"&&(s.__u|=4)):u!=p&&(u==p-1?c--:u==p+1?c++:(u>p?c--:c++,s.__u|=4))):n.__k[o]=null;if(d)for(o=0;o<h;o++)(l=r[o])!=null&&(2&l.__u)==0&&(l.__e==i&&(i=oe(l)),Ft(l,l));return i}function Ut(n,e,r){var i,a;if(typeof n.type=="function"){for(i=n.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=n,e=Ut(i[a],e,r));return e}n.__e!=e&&(e&&n.type&&!e.parentNode&&(e=oe(n)),e=r.insertBefore(n.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function Ot(n,e){return e=e||[],n==null||typeof n=="boolean"||(be(n)?n.some(function(r){Ot(r,e)}):e.push(n)),e}function mn(n,e,r,i){var a,o,s,l=n.key,p=n.type,u=e[r],h=u!=null&&(2&u.__u)==0;if(u===null&&l==null||h&&l==u.key&&p==u.type)return r;if(i>(h?1:0)){for(a=r-1,o=r+1;a>=0||o<e.length;)if((u=e[s=a>=0?a--:o++])!=null&&(2&u.__u)==0&&l==u.key&&p==u.type)return s}return-1}function ft(n,e,r){e[0]=="-"?n.setProperty(e,r??""):n[e]=r==null?"":typeof r!="number"||pn.test(e)?r:r+"px"}function ke(n,e,r,i,a){var o,s;e:if(e=="style")if(typeof r=="string")n.style.cssText=r;else{if(typeof i=="string"&&(n.style.cssText=i=""),i)for(e in i)r&&e in r||ft(n.style,e,"");if(r)for(e in r)i&&r[e]==i[e]||ft(n.style,e,r[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(xt,"$1")),s=e.toLowerCase(),e=s in n||e=="onFocusOut"||e=="onFocusIn"?s.slice(2):e.slice(2),n.l||(n.l={}),n.l[e+o]=r,r?i?r[ye]=i[ye]:(r[ye]=tt,n.addEventListener(e,o?Me:We,o)):n.removeEventListener(e,o?Me:We,o);else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in n)try{n[e]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&e[4]!="-"?n.removeAttribute(e):n.setAttribute(e,e=="popover"&&r==1?"":r))}}function mt(n){return function(e){if(this.l){var r=this.l[e.type+n];if(e[Ae]==null)e[Ae]=tt++;else if(e[Ae]<r[ye])return;return r(k.event?k.event(e):e)}}}function rt(n,e,r,i,a,o,s,l,p,u){var h,d,c,f,g,I,S,$,b,m,q,U,V,ie,J,R,T=e.type;if(e.constructor!==void 0)return null;128&r.__u&&(p=!!(32&r.__u),o=[l=e.__e=r.__e]),(h=k.__b)&&h(e);e:if(typeof T=="function"){d=s.length;try{if(b=e.props,m=T.prototype&&T.prototype.render,q=(h=T.contextType)&&i[h.__c],U=h?q?q.props.value:h.__:i,r.__c?$=(c=e.__c=r.__c).__=c.__E:(m?e.__c=c=new T(b,U):(e.__c=c=new Ce(b,U),c.constructor=T,c.render=yn),q&&q.sub(c),c.state||(c.state={}),c.__n=i,f=c.__d=!0,c.__h=[],c._sb=[]),m&&c.__s==null&&(c.__s=c.state),m&&T.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=Q({},c.__s)),Q(c.__s,T.getDerivedStateFromProps(b,c.__s))),g=c.props,I=c.state,c.__v=e,f)m&&T.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),m&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(m&&T.getDerivedStateFromProps==null&&b!==g&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(b,U),e.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(b,c.__s,U)===!1){e.__v!=r.__v&&(c.props=b,c.state=c.__s,c.__d=!1),e.__e=r.__e,e.__k=r.__k,e.__k.some(function(W){W&&(W.__=e)}),Pe.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),l=oe(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(b,c.__s,U),m&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(g,I,S)})}if(c.context=U,c.props=b,c.__P=n,c.__e=!1,V=k.__r,ie=0,m)c.state=c.__s,c.__d=!1,V&&V(e),h=c.render(c.props,c.state,c.context),Pe.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,V&&V(e),h=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++ie<25);c.state=c.__s,c.getChildContext!=null&&(i=Q(Q({},i),c.getChildContext())),m&&!f&&c.getSnapshotBeforeUpdate!=null&&(S=c.getSnapshotBeforeUpdate(g,I)),J=h!=null&&h.type===L&&h.key==null?zt(h.props.children):h,l=Lt(n,be(J)?J:[J],e,r,i,a,o,s,l,p,u),c.base=e.__e,e.__u&=-161,c.__h.length&&s.push(c),$&&(c.__E=c.__=null)}catch(W){if(s.length=d,e.__v=null,p||o!=null){if(W.then){for(e.__u|=p?160:128;l&&l.nodeType==8&&l.nextSibling;)l=l.nextSibling;o!=null&&(o[o.indexOf(l)]=null),e.__e=l}else if(o!=null)for(R=o.length;R--;)nt(o[R])}else e.__e=r.__e;e.__k==null&&(e.__k=r.__k||[]),W.then||Bt(e),k.__e(W,e,r)}}else o==null&&e.__v==r.__v?(e.__k=r.__k,e.__e=r.__e):l=e.__e=gn(r.__e,e,r,i,a,o,s,p,u);return(h=k.diffed)&&h(e),128&e.__u?void 0:l}function Bt(n){n&&(n.__c&&(n.__c.__e=!0),n.__k&&n.__k.some(Bt))}function Kt(n,e,r){for(var i=0;i<r.length;i++)it(r[i],r[++i],r[++i]);k.__c&&k.__c(e,n),n.some(function(a){try{n=a.__h,a.__h=[],n.some(function(o){o.call(a)})}catch(o){k.__e(o,a.__v)}})}function zt(n){return typeof n!="object"||n==null||n.__b>0?n:be(n)?n.map(zt):n.constructor!==void 0?null:Q({},n)}function gn(n,e,r,i,a,o,s,l,p){var u,h,d,c,f,g,I,S=r.props||Ee,$=e.props,b=e.type;if(b=="svg"?a="http://www.w3.org/2000/svg":b=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(u=0;u<o.length;u++)if((f=o[u])&&"setAttribute"in f==!!b&&(b?f.localName==b:f.nodeType==3)){n=f,o[u]=null;break}}if(n==null){if(b==null)return document.createTextNode($);n=document.createElementNS(a,b,$.is&&$),l&&(k.__m&&k.__m(e,o),l=!1),o=null}if(b==null)S===$||l&&n.data==$||(n.data=$);else{if(o=b=="textarea"&&$.defaultValue!=null?null:o&&Ie.call(n.childNodes),!l&&o!=null)for(S={},u=0;u<n.attributes.length;u++)S[(f=n.attributes[u]).name]=f.value;for(u in S)f=S[u],u=="dangerouslySetInnerHTML"?d=f:u=="children"||u in $||u=="value"&&"defaultValue"in $||u=="checked"&&"defaultChecked"in $||ke(n,u,null,f,a);for(u in $)f=$[u],u=="children"?c=f:u=="dangerouslySetInnerHTML"?h=f:u=="value"?g=f:u=="checked"?I=f:l&&typeof f!="function"||S[u]===f||ke(n,u,f,S[u],a);if(h)l||d&&(h.__html==d.__html||h.__html==n.innerHTML)||(n.innerHTML=h.__html),e.__k=[];else if(d&&(n.innerHTML=""),Lt(e.type=="template"?n.content:n,be(c)?c:[c],e,r,i,b=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&oe(r,0),l,p),o!=null)for(u=o.length;u--;)nt(o[u]);l&&b!="textarea"||(u="value",b=="progress"&&g==null?n.removeAttribute("value"):g!=null&&(g!==n[u]||b=="progress"&&!g||b=="option"&&g!=S[u])&&ke(n,u,g,S[u],a),u="checked",I!=null&&I!=n[u]&&ke(n,u,I,S[u],a))}return n}function it(n,e,r){try{if(typeof n=="function"){var i=typeof n.__u=="function";i&&n.__u(),i&&e==null||(n.__u=n(e))}else n.current=e}catch(a){k.__e(a,r)}}function Ft(n,e,r){var i,a;if(k.unmount&&k.unmount(n),(i=n.ref)&&(i.current&&i.current!=n.__e||it(i,null,e)),(i=n.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){k.__e(o,e)}i.base=i.__P=i.__n=null}if(i=n.__k)for(a=0;a<i.length;a++)i[a]&&Ft(i[a],e,r||typeof n.type!="function");r||nt(n.__e),n.__c=n.__=n.__e=void 0}function yn(n,e,r){return this.constructor(n,r)}function _n(n,e,r){var i,a,o,s;e==document&&(e=document.documentElement),k.__&&k.__(n,e),a=(i=!1)?null:e.__k,o=[],s=[],rt(e,n=e.__k=X(L,null,[n]),a||Ee,Ee,e.namespaceURI,a?null:e.firstChild?Ie.call(e.childNodes):null,o,a?a.__e:e.firstChild,i,s),Kt(o,n,s),n.props.children=null}function gt(n,e,r){var i,a,o,s,l=Q({},n.props);for(o in n.type&&n.type.defaultProps&&(s=n.type.defaultProps),e)o=="key"?i=e[o]:o=="ref"?a=e[o]:l[o]=e[o]===void 0&&s!=null?s[o]:e[o];return arguments.length>2&&(l.children=arguments.length>3?Ie.call(arguments,2):r),_e(n.type,l,i||n.key,a||n.ref,null)}function Wt(n){function e(r){var i,a;return this.getChildContext||(i=new Set,(a={})[e.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,He(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return e.__c="__cC"+Nt++,e.__=n,e.Provider=e.__l=(e.Consumer=function(r,i){return r.children(i)}).contextType=e,e}Ie=Pe.slice,k={__e:function(n,e,r,i){for(var a,o,s;e=e.__;)if((a=e.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(n)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(n,i||{}),s=a.__d),s)return a.__E=a}catch(l){n=l}throw n}},Et=0,Ce.prototype.setState=function(n,e){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=Q({},this.state),typeof n=="function"&&(n=n(Q({},r),this.props)),n&&Q(r,n),n!=null&&this.__v&&(e&&this._sb.push(e),He(this))},Ce.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),He(this))},Ce.prototype.render=L,Y=[],Pt=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Tt=function(n,e){return n.__v.__b-e.__v.__b},Te.__r=0,Be=Math.random().toString(8),Ae="__d"+Be,ye="__a"+Be,xt=/(PointerCapture)$|Capture$/i,tt=0,We=mt(!1),Me=mt(!0),Nt=0;var vn=0;function t(n,e,r,i,a,o){e||(e={});var s,l,p=e;if("ref"in p)for(l in p={},e)l=="ref"?s=e[l]:p[l]=e[l];var u={type:n,props:p,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--vn,__i:-1,__u:0,__source:a,__self:o};if(typeof n=="function"&&(s=n.defaultProps))for(l in s)p[l]===void 0&&(p[l]=s[l]);return k.vnode&&k.vnode(u),u}const In=(function(){const e=typeof document<"u"&&document.createElement("link").relList;return e&&e.supports&&e.supports("modulepreload")?"modulepreload":"preload"})(),bn=function(n){return"/"+n},yt={},ce=function(e,r,i){let a=Promise.resolve();if(r&&r.length>0){let p=function(u){return Promise.all(u.map(h=>Promise.resolve(h).then(d=>({status:"fulfilled",value:d}),d=>({status:"rejected",reason:d}))))};document.getElementsByTagName("link");const s=document.querySelector("meta[property=csp-nonce]"),l=s?.nonce||s?.getAttribute("nonce");a=p(r.map(u=>{if(u=bn(u),u in yt)return;yt[u]=!0;const h=u.endsWith(".css"),d=h?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${u}"]${d}`))return;const c=document.createElement("link");if(c.rel=h?"stylesheet":In,h||(c.as="script"),c.crossOrigin="",c.href=u,l&&c.setAttribute("nonce",l),document.head.appendChild(c),h)return new Promise((f,g)=>{c.addEventListener("load",f),c.addEventListener("error",()=>g(new Error(`Unable to preload CSS for ${u}`)))})}))}function o(s){const l=new Event("vite:preloadError",{cancelable:!0});if(l.payload=s,window.dispatchEvent(l),!l.defaultPrevented)throw s}return a.then(s=>{for(const l of s||[])l.status==="rejected"&&o(l.reason);return e().catch(o)})};var ae,A,Ke,_t,ve=0,Mt=[],E=k,vt=E.__b,It=E.__r,bt=E.diffed,$t=E.__c,St=E.unmount,kt=E.__;function $e(n,e){E.__h&&E.__h(A,n,ve||e),ve=0;var r=A.__H||(A.__H={__:[],__h:[]});return n>=r.__.length&&r.__.push({}),r.__[n]}function y(n){return ve=1,ot(Vt,n)}function ot(n,e,r){var i=$e(ae++,2);if(i.t=n,!i.__c&&(i.__=[Vt(void 0,e),function(l){var p=i.__N?i.__N[0]:i.__[0],u=i.t(p,l);p!==u&&(i.__N=[u,i.__[1]],i.__c.setState({}))}],i.__c=A,!A.__f)){var a=function(l,p,u){if(!i.__c.__H)return!0;var h=!1,d=i.__c.props!==l;if(i.__c.__H.__.some(function(f){if(f.__N){h=!0;var g=f.__[0];f.__=f.__N,f.__N=void 0,g!==f.__[0]&&(d=!0)}}),o){var c=o.call(this,l,p,u);return h?c||d:c}return!h||d};A.__f=!0;var o=A.shouldComponentUpdate,s=A.componentWillUpdate;A.componentWillUpdate=function(l,p,u){if(this.__e){var h=o;o=void 0,a(l,p,u),o=h}s&&s.call(this,l,p,u)},A.shouldComponentUpdate=a}return i.__N||i.__}function G(n,e){var r=$e(ae++,3);!E.__s&&st(r.__H,e)&&(r.__=n,r.u=e,A.__H.__h.push(r))}function Ht(n,e){var r=$e(ae++,4);!E.__s&&st(r.__H,e)&&(r.__=n,r.u=e,A.__h.push(r))}function O(n){return ve=5,qe(function(){return{current:n}},[])}function qe(n,e){var r=$e(ae++,7);return st(r.__H,e)&&(r.__=n(),r.__H=e,r.__h=n),r.__}function $n(n,e){return ve=8,qe(function(){return n},e)}function at(n){var e=A.context[n.__c],r=$e(ae++,9);return r.c=n,e?(r.__==null&&(r.__=!0,e.sub(A)),e.props.value):n.__}function Sn(){for(var n;n=Mt.shift();){var e=n.__H;if(n.__P&&e)try{e.__h.some(Re),e.__h.some(Ve),e.__h=[]}catch(r){e.__h=[],E.__e(r,n.__v)}}}E.__b=function(n){A=null,vt&&vt(n)},E.__=function(n,e){n&&e.__k&&e.__k.__m&&(n.__m=e.__k.__m),kt&&kt(n,e)},E.__r=function(n){It&&It(n),ae=0;var e=(A=n.__c).__H;e&&(Ke===A?(e.__h=[],A.__h=[],e.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(e.__h.some(Re),e.__h.some(Ve),e.__h=[],ae=0)),Ke=A},E.diffed=function(n){bt&&bt(n);var e=n.__c;e&&e.__H&&(e.__H.__h.length&&(Mt.push(e)!==1&&_t===E.requestAnimationFrame||((_t=E.requestAnimationFrame)||kn)(Sn)),e.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),Ke=A=null},E.__c=function(n,e){e.some(function(r){try{r.__h.some(Re),r.__h=r.__h.filter(function(i){return!i.__||Ve(i)})}catch(i){e.some(function(a){a.__h&&(a.__h=[])}),e=[],E.__e(i,r.__v)}}),$t&&$t(n,e)},E.unmount=function(n){St&&St(n);var e,r=n.__c;r&&r.__H&&(r.__H.__.some(function(i){try{Re(i)}catch(a){e=a}}),r.__H=void 0,e&&E.__e(e,r.__v))};var wt=typeof requestAnimationFrame=="function";function kn(n){var e,r=function(){clearTimeout(i),wt&&cancelAnimationFrame(e),setTimeout(n)},i=setTimeout(r,35);wt&&(e=requestAnimationFrame(r))}function Re(n){var e=A,r=n.__c;typeof r=="function"&&(n.__c=void 0,r()),A=e}function Ve(n){var e=A;n.__c=n.__(),A=e}function st(n,e){return!n||n.length!==e.length||e.some(function(r,i){return r!==n[i]})}function Vt(n,e){return typeof e=="function"?e(n):e}let le,ge;function wn(n){return!ge||(typeof ge=="string"?n.startsWith(ge):ge.test(n))}function jn(n,e){let r="";if(le=void 0,e&&e.type==="click"){if(e.ctrlKey||e.metaKey||e.altKey||e.shiftKey||e.button!==0)return n;const i=e.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!wn(a)||i.download)return n;le=!0,e.preventDefault(),r=i.href.replace(location.origin,"")}else e&&e.url?(le=!e.replace,r=e.url):r=location.pathname+location.search;return le===!0?history.pushState(null,"",r):le===!1&&history.replaceState(null,"",r),r}const Dn=(n,e,r={})=>{n=n.split("/").filter(Boolean),e=(e||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(n.length,e.length);i++){let[,s,l,p]=(e[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=n[i],!(!s&&l==a)){if(!s&&a&&p=="*"){r.rest="/"+n.slice(i).join("/");break}if(!s||!a&&p!="?"&&p!="*")return;if(o=p=="+"||p=="*",o?a=n.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[l]=a,l in r||(r[l]=a),o)break}}return r};function Se(n){const[e,r]=ot(jn,n.url||location.pathname+location.search);n.scope&&(ge=n.scope);const i=le===!0,a=qe(()=>{const o=new URL(e,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:e,path:s,query:Object.fromEntries(o.searchParams),route:(l,p)=>r({url:l,replace:p}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[e]);return Ht(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),X(Se.ctx.Provider,{value:a},n.children)}const An=Promise.resolve();function Qe(n){const[e,r]=ot(R=>R+1,0),{url:i,query:a,wasPush:o,path:s}=z();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:l=s,params:p={}}=at(Ge),u=O(!1),h=O(s),d=O(1),c=O(),f=O(),g=O(),I=O(!1),S=O();S.current=!1;let $,b,m;Ot(n.children).some(R=>{if(Dn(l,R.props.path,m={...R.props,path:l,query:a,params:Object.assign({},p),rest:""}))return $=gt(R,m);R.props.default&&(b=gt(R,m))});let q=$||b;const U=c.current&&c.current.__u&we&&c.current.__u&je,V=c.current&&c.current.__h,ie=qe(()=>{f.current=c.current,c.current=X(Ge.Provider,{value:m},q);const R=f.current&&f.current.props.children;return!R||!q||q.type!==R.type||q.props.component!==R.props.component?(d.current++,!0):!1},[i,JSON.stringify(m)]);U?(c.current.__u|=we,c.current.__u|=je):V&&(c.current.__h=!0);const J=f.current;return f.current=null,this.__c=(R,T)=>{S.current=!0,f.current=J,n.onLoadStart&&n.onLoadStart(i),u.current=!0;let W=d.current;R.then(()=>{W===d.current&&(f.current=null,c.current&&(T.__h&&(c.current.__h=T.__h),T.__u&je&&(c.current.__u|=je),T.__u&we&&(c.current.__u|=we)),An.then(r))})},Ht(()=>{const R=this.__v&&this.__v.__e;if(S.current){!I.current&&!g.current&&(g.current=R);return}!I.current&&g.current&&(g.current!==R&&g.current.remove(),g.current=null),I.current=!0,h.current!==s&&(o&&scrollTo(0,0),n.onRouteChange&&n.onRouteChange(i),h.current=s),n.onLoadEnd&&u.current&&n.onLoadEnd(i),u.current=!1},[s,o,e]),ie?[X(ze,{r:c,key:d.current}),X(ze,{r:f,key:d.current-1})]:X(ze,{r:c,key:d.current})}const we=32,je=128,ze=({r:n})=>n.current;Qe.Provider=Se;Se.ctx=Wt({});const Ge=Wt({}),P=n=>X(n.component,n),z=()=>at(Se.ctx),te=()=>at(Ge),jt=k.__b;k.__b=n=>{n.type&&n.type._forwarded&&n.ref&&(n.props.ref=n.ref,n.ref=null),jt&&jt(n)};function he(n){let e,r;const i=()=>n().then(o=>r=o&&o.default||o),a=o=>{const[,s]=y(0),l=O(r);if(e||(e=i()),r!==void 0)return X(r,o);throw l.current||(l.current=e.then(()=>s(1))),e};return a.preload=()=>(e||(e=i()),e),a._forwarded=!0,a}const Dt=k.__e;k.__e=(n,e,r)=>{if(n&&n.then){let i=e;for(;i=i.__;)if(i.__c&&i.__c.__c)return e.__e==null&&(e.__c.__z=[r.__e],e.__e=r.__e,e.__k=r.__k),e.__k||(e.__k=[]),i.__c.__c(n,e)}Dt&&Dt(n,e,r)};const Je={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class x extends Error{code;problems;constructor(e,r,i=[]){super(r),this.code=e,this.problems=i}static from(e){const r=e[0],i=r?.extensions?.code??"internal",a=e.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&Je[i]&&i!=="unauthenticated"&&(o=`${Je[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new x(i,o,a)}fieldErrors(e=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&e.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Qt(){return new x("network",Je.network)}function Cn(n){return n instanceof x||n instanceof Error?n.message:String(n)}function Rn(n){let e=n;const r=new Set;return{get:()=>e,set(i){e=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function En(n){const[e,r]=y(n.get());return G(()=>(r(n.get()),n.subscribe(r)),[n]),e}const Z=Rn({status:"unknown"});let Ye;function ct(n,e,r){const i=Date.now()+e*1e3;Z.set({status:"signedIn",token:n,expiresAt:i,user:r}),clearTimeout(Ye);const a=Math.max(1e4,e*1e3-6e4);Ye=setTimeout(()=>{Le()},a)}function dt(){clearTimeout(Ye),Z.set({status:"signedOut"})}let Xe,me;function Pn(n){Xe=n}function Le(){if(me)return me;const n=async()=>{if(!Xe)return!1;const i=await Xe();return i?(ct(i.accessToken,i.expiresIn,i.user),!0):(dt(),!1)},e=navigator.locks;return me=(e?e.request("einvoice-session-refresh",n):n()).finally(()=>{me=void 0}),me}const Gt="/graphql";async function xe(n,e,r){const i={"Content-Type":"application/json",Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let a;try{a=await fetch(Gt,{method:"POST",headers:i,body:JSON.stringify({query:n,variables:e}),credentials:"same-origin"})}catch{throw Qt()}let o;try{o=await a.json()}catch{throw a.status===429?new x("rate_limited","Too many requests. Wait a moment and try again."):new x("internal",`The server answered ${a.status}.`)}return a.status===401&&!o.errors&&(o.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),o}function At(n){return!!n?.some(e=>e.extensions?.code==="unauthenticated")}async function C(n,...[e]){const r=n.toString();let i=await xe(r,e??{},Z.get().token);if(At(i.errors)&&Z.get().token!==void 0)if(await Le())i=await xe(r,e??{},Z.get().token);else throw new x("unauthenticated","Your session has ended. Log in again.");if(i.errors?.length)throw At(i.errors)&&Z.get().status==="signedIn"&&dt(),x.from(i.errors);if(!i.data)throw new x("internal","The server answered no data.");return i.data}async function lt(n,e){const r=await xe(n.toString(),e??{});if(r.errors?.length)throw x.from(r.errors);if(!r.data)throw new x("internal","The server answered no data.");return r.data}const Tn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";Pn(async()=>{try{return(await xe(Tn,{})).data?.refreshSession??null}catch{return null}});let ue;async function xn(){if(ue)return ue;const{createClient:n}=await ce(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),e=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Gt}`;return ue=n({url:e,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=Z.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Le()}}}),ue}function Nn(){ue?.dispose(),ue=void 0}function qn(n,e,r,i){let a,o=!1;return xn().then(s=>{o||(a=s.subscribe({query:n.toString(),variables:e},{next:l=>{l.errors?.length?i(x.from(l.errors)):l.data&&r(l.data)},error:l=>{Array.isArray(l)?i(x.from(l)):i(Qt())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function H(n,e){const[r,i]=y({loading:!0}),[a,o]=y(0),s=O(0);G(()=>{const p=++s.current;i(u=>({data:u.data,loading:!0})),n().then(u=>p===s.current&&i({data:u,loading:!1}),u=>p===s.current&&i({error:u,loading:!1}))},[...e,a]);const l=$n(()=>o(p=>p+1),[]);return{...r,reload:l}}class _ extends String{__apiType;value;__meta__;constructor(e,r){super(e),this.value=e,this.__meta__=r}toString(){return this.value}}const Ln=new _(`
    mutation PullReceivedInvoices($projectId: ID!) {
  pullReceivedInvoices(projectId: $projectId) {
    workflowId
  }
}
    `),Un=new _(`
    mutation DecideReceivedInvoice($projectId: ID!, $id: ID!, $decision: String!, $reason: String) {
  decideReceivedInvoice(
    projectId: $projectId
    id: $id
    decision: $decision
    reason: $reason
  ) {
    id
    decision
    decisionReason
    decidedAt
  }
}
    `),On=new _(`
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
    `),Bn=new _(`
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
    `),Kn=new _(`
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
    `),zn=new _(`
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
    `),Fn=new _(`
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
    `),Wn=new _(`
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
    `),Mn=new _(`
    mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(input: $input) {
    id
    enabled
    disabledReason
  }
}
    `),Hn=new _(`
    mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    id
    deleted
  }
}
    `),Vn=new _(`
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
    `),Qn=new _(`
    mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),Gn=new _(`
    mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
  redeliverEvent(eventId: $eventId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),Jn=new _(`
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
    `),Yn=new _(`
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
    `),Xn=new _(`
    mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
  clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
}
    `),Zn=new _(`
    query InvoiceSheetColumns {
  invoiceSheetColumns {
    name
    level
    required
    description
  }
}
    `),er=new _(`
    query PreviewInvoiceSheet($projectId: ID!, $fileName: String!, $content: String!) {
  previewInvoiceSheet(
    projectId: $projectId
    fileName: $fileName
    contentBase64: $content
  ) {
    rowCount
    counts
    errors {
      row
      column
      message
    }
    invoices {
      invoiceReference
      invoiceType
      rows
      valid
      payload
    }
  }
}
    `),tr=new _(`
    mutation SubmitSheetBatch($projectId: ID!, $invoices: [SubmitInvoiceInput!]!) {
  submitInvoiceBatch(projectId: $projectId, invoices: $invoices) {
    id
    itemCount
    counts {
      status
      count
    }
    items {
      index
      status
      invoiceId
      irn
      problems {
        loc
        msg
      }
      error {
        code
        detail
      }
    }
  }
}
    `),nr=new _(`
    query SheetBatch($id: ID!) {
  invoiceBatch(id: $id) {
    id
    itemCount
    counts {
      status
      count
    }
    items {
      index
      status
      invoiceId
      irn
      problems {
        loc
        msg
      }
      error {
        code
        detail
      }
    }
  }
}
    `),rr=new _(`
    mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {
  createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) {
    id
    irn
    status
    invoiceTypeCode
    billingReference
  }
}
    `),ir=new _(`
    query InvoiceUbl($id: ID!) {
  invoice(id: $id) {
    id
    irn
    ubl
  }
}
    `),or=new _(`
    query ReceivedInvoices($id: ID!, $first: Int, $after: String, $filter: ReceivedInvoiceFilter) {
  project(id: $id) {
    id
    name
    environment
    receivedInvoices(first: $first, after: $after, filter: $filter) {
      edges {
        node {
          id
          irn
          supplierTin
          supplierName
          invoiceTypeCode
          issueDate
          currency
          payableAmount
          sealed
          confirmed
          confirmedAt
          decision
          decisionReason
          decidedAt
          receivedAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `),ar=new _(`
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
    `),sr=new _(`
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
    `),cr=new _(`
    mutation Logout {
  logout {
    revoked
  }
}
    `),dr=new _(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),lr=new _(`
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
    `),ur=new _(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),pr=new _(`
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
    `),hr=new _(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),fr=new _(`
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
    `),mr=new _(`
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
    `),gr=new _(`
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
    `),yr=new _(`
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
    `),_r=new _(`
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
    `),vr=new _(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),Ir=new _(`
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
    `),br=new _(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),$r=new _(`
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
    `),Sr=new _(`
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
    `),kr=new _(`
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
    `),wr=new _(`
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
    `),jr=new _(`
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
    `),Dr=new _(`
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
    `),Ar=new _(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),Cr=new _(`
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
    `),Rr=new _(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),Er={"\n  mutation PullReceivedInvoices($projectId: ID!) {\n    pullReceivedInvoices(projectId: $projectId) { workflowId }\n  }\n":Ln,"\n  mutation DecideReceivedInvoice($projectId: ID!, $id: ID!, $decision: String!, $reason: String) {\n    decideReceivedInvoice(projectId: $projectId, id: $id, decision: $decision, reason: $reason) {\n      id decision decisionReason decidedAt\n    }\n  }\n":Un,"\n  query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {\n    project(id: $id) {\n      id name environment\n      invoiceQueue { depth oldestAgeSeconds atRisk missed nextDeadlineAt ratePerMinute nrsStatus }\n      invoices(first: $first, after: $after, filter: $filter) {\n        edges {\n          node {\n            id irn status invoiceType invoiceTypeCode issueDate customerTin paymentStatus createdAt updatedAt confirmedAt\n            deadlineAt deadlineAtRisk deadlineMissed\n          }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":On,"\n  query Invoice($id: ID!) {\n    invoice(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":Bn,"\n  subscription InvoiceUpdated($id: ID!) {\n    invoiceUpdated(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":Kn,"\n  query WebhookEndpoints($id: ID!) {\n    project(id: $id) {\n      id name environment\n      webhookEndpoints(first: 50) {\n        edges {\n          node { id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince createdAt updatedAt }\n        }\n      }\n    }\n  }\n":zn,"\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    project(id: $id) {\n      id name\n      webhookEndpoints(first: 50) {\n        edges {\n          node {\n            id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince\n            deliveries(first: $first) {\n              edges { node { id deliveryId eventId eventType attempt status httpStatus latencyMs responseBody error createdAt } }\n              pageInfo { hasNextPage endCursor }\n            }\n          }\n        }\n      }\n    }\n  }\n":Fn,"\n  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {\n    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }\n  }\n":Wn,"\n  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {\n    updateWebhookEndpoint(input: $input) { id enabled disabledReason }\n  }\n":Mn,"\n  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }\n  }\n":Hn,"\n  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {\n    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {\n      secret endpoint { id url secretLast4 previousSecretExpiresAt }\n    }\n  }\n":Vn,"\n  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":Qn,"\n  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {\n    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":Gn,"\n  query SandboxFaults($id: ID!) {\n    project(id: $id) { id name environment }\n    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":Jn,"\n  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {\n    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":Yn,"\n  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {\n    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)\n  }\n":Xn,"\n  query InvoiceSheetColumns {\n    invoiceSheetColumns { name level required description }\n  }\n":Zn,"\n  query PreviewInvoiceSheet($projectId: ID!, $fileName: String!, $content: String!) {\n    previewInvoiceSheet(projectId: $projectId, fileName: $fileName, contentBase64: $content) {\n      rowCount counts\n      errors { row column message }\n      invoices { invoiceReference invoiceType rows valid payload }\n    }\n  }\n":er,"\n  mutation SubmitSheetBatch($projectId: ID!, $invoices: [SubmitInvoiceInput!]!) {\n    submitInvoiceBatch(projectId: $projectId, invoices: $invoices) {\n      id itemCount counts { status count }\n      items { index status invoiceId irn problems { loc msg } error { code detail } }\n    }\n  }\n":tr,"\n  query SheetBatch($id: ID!) {\n    invoiceBatch(id: $id) {\n      id itemCount counts { status count }\n      items { index status invoiceId irn problems { loc msg } error { code detail } }\n    }\n  }\n":nr,"\n  mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {\n    createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) { id irn status invoiceTypeCode billingReference }\n  }\n":rr,"\n  query InvoiceUbl($id: ID!) {\n    invoice(id: $id) { id irn ubl }\n  }\n":ir,"\n  query ReceivedInvoices($id: ID!, $first: Int, $after: String, $filter: ReceivedInvoiceFilter) {\n    project(id: $id) {\n      id name environment\n      receivedInvoices(first: $first, after: $after, filter: $filter) {\n        edges {\n          node {\n            id irn supplierTin supplierName invoiceTypeCode issueDate currency payableAmount sealed confirmed confirmedAt\n            decision decisionReason decidedAt receivedAt\n          }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":or,"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":ar,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":sr,"\n  mutation Logout {\n    logout { revoked }\n  }\n":cr,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":dr,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":lr,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":ur,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":pr,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":hr,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":fr,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":mr,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":gr,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":yr,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":_r,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":vr,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Ir,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":br,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":$r,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Sr,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":kr,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":wr,"\n  query AuditChain($org: ID!) {\n    organization(id: $org) {\n      id\n      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }\n    }\n  }\n":jr,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    project(id: $projectId) { id validationProfile }\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":Dr,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":Ar,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":Cr,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":Rr};function j(n){return Er[n]??{}}const Pr=j(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),Tr=j(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),xr=j(`
  mutation Logout {
    logout { revoked }
  }
`),Nr=j(`
  mutation EndSession {
    endSession { ended }
  }
`),ut=j(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),qr=j(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),Lr=j(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),Ur=j(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),Jt=j(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),Or=j(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),Br=j(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),Kr=j(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),zr=j(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),Fr=j(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),Wr=j(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),Mr=j(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),Hr=j(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),Vr=j(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),Qr=j(`
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
`),Gr=j(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),Jr=j(`
  query AuditChain($org: ID!) {
    organization(id: $org) {
      id
      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }
    }
  }
`),Yr=j(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),Xr=j(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),Zr=j(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),ei=j(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);function F(n){const e=O(null);return G(()=>{document.title=`${n.title} · einvoice`,e.current?.focus({preventScroll:!1})},[n.title]),t("section",{class:"page","aria-labelledby":"page-title",children:[t("div",{class:"page-head",children:[t("h1",{id:"page-title",tabIndex:-1,ref:e,children:n.title}),n.actions&&t("div",{class:"page-actions",children:n.actions})]}),n.lead&&t("p",{class:"lead",children:n.lead}),n.children]})}function B(n){return t("p",{class:"loading",role:"status","aria-live":"polite",children:[t("span",{class:"spinner","aria-hidden":"true"})," ",n.label??"Loading…"]})}function de(n){return t("div",{class:"empty",children:n.children})}function K(n){return n.error?t("div",{class:"alert error",role:"alert",children:[t("p",{children:Cn(n.error)}),n.retry&&t("button",{type:"button",class:"secondary",onClick:n.retry,children:"Try again"})]}):null}function Yt(n){return t("div",{class:`alert ${n.kind??"ok"}`,role:"status",children:n.children})}let ti=0;function Xt(n){const[e]=y(()=>`${n}-${++ti}`);return e}function D({label:n,name:e,error:r,hint:i,...a}){const o=Xt(e),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("input",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&t("p",{class:"hint",id:`${o}-hint`,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function se({label:n,name:e,error:r,children:i,...a}){const o=Xt(e);return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("select",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function ne(n){if(!n.error)return null;const e=n.error;if(e instanceof x&&e.code==="invalid"){const r=e.fieldErrors(),i=Object.entries(r).filter(([a])=>!n.fields?.includes(a));return t("div",{class:"alert error",role:"alert",children:[t("p",{children:e.message}),i.length>0&&t("ul",{children:i.map(([a,o])=>t("li",{children:[t("code",{children:a||"request"}),": ",o]},a))})]})}return t(K,{error:e})}function re(n){return n instanceof x?n.fieldErrors():{}}function Ct(n){const e=O(null);return G(()=>{const r=e.current;r&&(n.open&&!r.open&&r.showModal(),!n.open&&r.open&&r.close())},[n.open]),t("dialog",{ref:e,"aria-labelledby":"confirm-title",onClose:n.onClose,onCancel:n.onClose,children:[t("h2",{id:"confirm-title",children:n.title}),n.children,t("div",{class:"dialog-actions",children:[t("button",{type:"button",class:"secondary",onClick:n.onClose,children:"Cancel"}),t("button",{type:"button",class:n.danger?"danger":"",disabled:n.busy,onClick:n.onConfirm,children:n.confirm})]})]})}function Ze(n){const[e,r]=y("");return t("span",{class:"copy",children:[t("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(n.text),r("ok")}catch{r("fail")}},children:n.label??"Copy"}),t("span",{role:"status","aria-live":"polite",class:"copy-status",children:e==="ok"?"Copied":e==="fail"?"Copy failed: select the text and copy it":""})]})}function ee(n){return n?new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function N(n){return t("span",{class:`badge ${n.tone??"info"}`,children:n.children})}const ni=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"},{path:"/invoices",label:"Invoices"},{path:"/inbox",label:"Inbox"},{path:"/webhooks",label:"Webhooks"},{path:"/sandbox",label:"Sandbox faults"}],ri=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],pe="einvoice.org";function ii(n){const e=n.next;return e&&e.startsWith("/")&&!e.startsWith("//")?e:"/"}function oi(){const n=z(),[e,r]=y(),[i,a]=y(!1),o=async l=>{l.preventDefault();const p=new FormData(l.currentTarget);a(!0),r(void 0);try{const u=await lt(Tr,{input:{email:String(p.get("email")),password:String(p.get("password"))}});ct(u.login.accessToken,u.login.expiresIn,u.login.user),n.route(ii(n.query),!0)}catch(u){r(u)}finally{a(!1)}},s=re(e);return t("div",{class:"auth",children:t(F,{title:"Log in to einvoice",children:[t("form",{onSubmit:o,noValidate:!0,children:[t(D,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),t(D,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),t(ne,{error:e,fields:["email","password"]}),t("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),t("p",{children:["New here? ",t("a",{href:"/signup",children:"Create an account"})]})]})})}function ai(){const n=z(),[e,r]=y(),[i,a]=y(!1),[o,s]=y(""),[l,p]=y(!1),u=async d=>{d.preventDefault();const c=new FormData(d.currentTarget);a(!0),r(void 0);try{const f=await lt(Pr,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});ct(f.signup.accessToken,f.signup.expiresIn,f.signup.user),f.signup.organization?(localStorage.setItem(pe,f.signup.organization.id),n.route(`/orgs/${f.signup.organization.id}/projects`,!0)):n.route("/",!0)}catch(f){r(f)}finally{a(!1)}},h=re(e);return t("div",{class:"auth",children:t(F,{title:"Create your einvoice account",children:[t("form",{onSubmit:u,noValidate:!0,children:[t(D,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:h.email}),t(D,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:h.password}),t(D,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:h.organizationName,onInput:d=>{l||s(Zt(d.currentTarget.value))}}),t(D,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:h.organizationSlug,onInput:d=>{p(!0),s(d.currentTarget.value)}}),t(ne,{error:e,fields:["email","password","organizationName","organizationSlug"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),t("p",{children:["Have an account? ",t("a",{href:"/login",children:"Log in"})]})]})})}function Zt(n){return n.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function si(){const n=z(),e=H(()=>C(ut),[]),[r,i]=y(),[a,o]=y(!1),[s,l]=y(""),p=async d=>{d.preventDefault();const c=new FormData(d.currentTarget);o(!0),i(void 0);try{const f=await C(qr,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(pe,f.createOrganization.id),n.route(`/orgs/${f.createOrganization.id}/projects`)}catch(f){i(f)}finally{o(!1)}},u=re(r),h=e.data?.me.organizations.edges??[];return t(F,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[e.loading&&!e.data&&t(B,{}),t(K,{error:e.error,retry:e.reload}),e.data&&h.length===0&&t(de,{children:"You belong to no organization yet. Create one below."}),h.length>0&&t("ul",{class:"cards",children:h.map(({node:d})=>t("li",{class:"card",children:[t("a",{href:`/orgs/${d.id}/projects`,onClick:()=>localStorage.setItem(pe,d.id),children:d.name}),t("span",{class:"muted",children:[" ",d.slug]})," ",t(N,{children:d.role.toLowerCase()})]},d.id))}),t("form",{onSubmit:p,class:"panel",noValidate:!0,children:[t("h2",{children:"New organization"}),t(D,{label:"Name",name:"name",required:!0,error:u.name,onInput:d=>l(Zt(d.currentTarget.value))}),t(D,{label:"Slug",name:"slug",required:!0,value:s,onInput:d=>l(d.currentTarget.value),error:u.slug}),t(ne,{error:r,fields:["name","slug"]}),t("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function en(n){return H(()=>C(Jt,{id:n}),[n]).data?.project?.name}function fe(n){const e=z(),r=`/projects/${n.projectId}`;return t(L,{children:[t("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[n.org&&t("a",{href:`/orgs/${n.org.id}/projects`,children:n.org.name}),n.org&&t("span",{"aria-hidden":"true",children:" / "}),t("span",{children:n.project??"Project"})]}),t("nav",{"aria-label":"Project",class:"tabs",children:ni.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function tn(n){const e=z(),r=`/orgs/${n.orgId}`;return t("nav",{"aria-label":"Organization",class:"tabs",children:[ri.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path)),n.children]})}function nn(n){const e=z(),i=H(()=>C(ut),[]).data?.me.organizations.edges??[];return i.length<2?null:t("div",{class:"switcher",children:[t("label",{for:"org-switch",children:"Switch organization"}),t("select",{id:"org-switch",value:n.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(pe,o),e.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>t("option",{value:a.id,children:a.name},a.id))})]})}function ci(){const{params:n}=te(),e=n.orgId,r=z(),i=H(()=>C(Lr,{id:e}),[e]),[a,o]=y(),[s,l]=y(!1);G(()=>localStorage.setItem(pe,e),[e]);const p=i.data?.organization,u=async f=>{f.preventDefault();const g=new FormData(f.currentTarget);l(!0),o(void 0);try{const I=await C(Ur,{input:{organizationId:e,name:String(g.get("name")),environment:g.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${I.createProject.id}`)}catch(I){o(I)}finally{l(!1)}},h=re(a),d=p?.projects.edges??[],c=p&&p.role!=="MEMBER";return t(F,{title:p?`${p.name}: projects`:"Projects",actions:t(nn,{orgId:e}),children:[t(tn,{orgId:e}),i.loading&&!i.data&&t(B,{label:"Loading projects…"}),t(K,{error:i.error,retry:i.reload}),p&&d.length===0&&t(de,{children:t("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),d.length>0&&t("ul",{class:"cards","aria-label":"Projects",children:d.map(({node:f})=>t("li",{class:"card",children:[t("a",{href:`/projects/${f.id}`,children:f.name})," ",t(N,{tone:f.environment==="PRODUCTION"?"warn":"info",children:f.environment.toLowerCase()})," ",!f.authority.configured&&t(N,{tone:"bad",children:"not configured"}),t("div",{class:"muted small",children:["Created ",ee(f.createdAt)]})]},f.id))}),c&&t("form",{onSubmit:u,class:"panel",noValidate:!0,children:[t("h2",{children:"New project"}),t(D,{label:"Project name",name:"name",required:!0,error:h.name}),t(se,{label:"Environment",name:"environment",error:h.environment,children:[t("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),t("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),t(ne,{error:a,fields:["name","environment"]}),t("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function di(){const{params:n}=te(),e=n.projectId,r=H(()=>C(Jt,{id:e}),[e]),i=r.data?.project;return t(F,{title:i?i.name:"Project",children:[t(fe,{projectId:e,org:i?.organization,project:i?.name}),r.loading&&!i&&t(B,{}),t(K,{error:r.error,retry:r.reload}),i&&t(L,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Environment"}),t("dd",{children:t(N,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),t("dt",{children:"Created"}),t("dd",{children:ee(i.createdAt)}),t("dt",{children:"Tax authority"}),t("dd",{children:i.authority.taxAuthorityCode}),t("dt",{children:"Business id"}),t("dd",{children:t("code",{children:i.authority.businessId??"—"})}),t("dt",{children:"Service id"}),t("dd",{children:t("code",{children:i.authority.serviceId??"—"})}),t("dt",{children:"Status"}),t("dd",{children:i.authority.configured?t(N,{tone:"ok",children:"configured"}):t(N,{tone:"bad",children:"not configured"})}),t("dt",{children:"API credentials"}),t("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),t("dt",{children:"QR encryption"}),t("dd",{children:i.authority.qrEncryption}),t("dt",{children:"Public key fingerprint"}),t("dd",{children:t("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&t(ui,{projectId:e,onSaved:r.reload}),i.environment==="SANDBOX"&&t("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const li=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function ui(n){const[e,r]=y(),[i,a]=y(!1),[o,s]=y(!1),l=async u=>{u.preventDefault();const h=u.currentTarget,d=new FormData(h),c=f=>{const g=String(d.get(f)??"").trim();return g===""?null:g};a(!0),r(void 0),s(!1);try{await C(Or,{projectId:n.projectId,input:{taxAuthorityCode:String(d.get("taxAuthorityCode")??"NRS"),businessId:String(d.get("businessId")??""),serviceId:String(d.get("serviceId")??""),publicKey:String(d.get("publicKey")??""),certificate:String(d.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const f of["publicKey","certificate","apiKey","apiSecret"])h.elements.namedItem(f).value="";s(!0),n.onSaved()}catch(f){r(f)}finally{a(!1)}},p=re(e);return t("form",{class:"panel",onSubmit:l,noValidate:!0,children:[t("h2",{children:"Tax authority settings"}),t("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),t(D,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:p.taxAuthorityCode}),t(D,{label:"Business id",name:"businessId",required:!0,error:p.businessId,hint:"The UUID NRS gave your business."}),t(D,{label:"Service id",name:"serviceId",required:!0,error:p.serviceId,hint:"8 letters or digits."}),t(D,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:p.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),t(D,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:p.certificate}),t(D,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:p.apiKey,hint:"Given together with the API secret."}),t(D,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:p.apiSecret}),t(D,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:p.baseUrl}),t(D,{label:"QR encryption (optional)",name:"qrEncryption",error:p.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),t(ne,{error:e,fields:li}),o&&t(Yt,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),t("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function pi(){const{params:n}=te(),e=n.projectId,r=H(()=>C(Br,{id:e}),[e]),[i,a]=y(),[o,s]=y(),[l,p]=y(),[u,h]=y("3600"),[d,c]=y(!1),[f,g]=y(),I=r.data?.project,S=I?.apiKeys.edges??[],$=async()=>{if(o){c(!0),g(void 0);try{const m=await C(zr,{projectId:e,keyId:o.id,graceSeconds:Number(u)});a({keyName:m.rotateApiKey.key.keyName,clientId:m.rotateApiKey.key.clientId,secret:m.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(m){g(m)}finally{c(!1)}}},b=async()=>{if(l){c(!0),g(void 0);try{await C(Fr,{projectId:e,keyId:l.id}),p(void 0),r.reload()}catch(m){g(m)}finally{c(!1)}}};return t(F,{title:I?`${I.name}: API keys`:"API keys",children:[t(fe,{projectId:e,project:I?.name}),r.loading&&!I&&t(B,{label:"Loading keys…"}),t(K,{error:r.error,retry:r.reload}),i&&t(hi,{r:i,onDone:()=>a(void 0)}),t(K,{error:f}),I&&S.length===0&&t(de,{children:"No API keys yet. Create one to call the API from your systems."}),S.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:t("table",{children:[t("caption",{class:"sr-only",children:"API keys"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Name"}),t("th",{scope:"col",children:"Client id"}),t("th",{scope:"col",children:"Secret"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Last used"}),t("th",{scope:"col",children:t("span",{class:"sr-only",children:"Actions"})})]})}),t("tbody",{children:S.map(({node:m})=>t("tr",{children:[t("th",{scope:"row",children:[m.keyName,t("div",{class:"muted small",children:m.scopes.length===r.data.apiKeyScopes.length?"all scopes":m.scopes.join(", ")})]}),t("td",{children:t("code",{children:m.clientId})}),t("td",{children:t("code",{children:["…",m.secretLast4]})}),t("td",{children:[t(N,{tone:m.status==="ACTIVE"?"ok":"bad",children:m.status.toLowerCase()}),m.rotatedAt&&t("div",{class:"muted small",children:["rotated ",ee(m.rotatedAt)]})]}),t("td",{children:ee(m.lastUsedAt)}),t("td",{class:"row-actions",children:m.status==="ACTIVE"&&t(L,{children:[t("button",{type:"button",class:"secondary",onClick:()=>s({id:m.id,name:m.keyName}),"aria-label":`Rotate ${m.keyName}`,children:"Rotate"}),t("button",{type:"button",class:"danger",onClick:()=>p({id:m.id,name:m.keyName}),"aria-label":`Revoke ${m.keyName}`,children:"Revoke"})]})})]},m.id))})]})}),r.data&&t(fi,{projectId:e,scopes:r.data.apiKeyScopes,onCreated:m=>{a(m),r.reload()}}),t(Ct,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:d,onConfirm:$,onClose:()=>s(void 0),children:[t("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),t(se,{label:"Grace period for the old secret",name:"grace",value:u,onChange:m=>h(m.currentTarget.value),children:[t("option",{value:"0",children:"None: the old secret stops now"}),t("option",{value:"3600",children:"1 hour"}),t("option",{value:"86400",children:"1 day"}),t("option",{value:"604800",children:"7 days"})]})]}),t(Ct,{open:!!l,title:`Revoke ${l?.name??""}?`,confirm:"Revoke key",danger:!0,busy:d,onConfirm:b,onClose:()=>p(void 0),children:t("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function hi(n){return t("section",{class:"panel secret","aria-labelledby":"secret-title",children:[t("h2",{id:"secret-title",tabIndex:-1,ref:e=>e?.focus(),children:[n.r.rotated?"New secret":"Your new key",": ",n.r.keyName]}),t("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),t("dl",{class:"facts",children:[t("dt",{children:"Client id (X-Client-Id)"}),t("dd",{children:[t("code",{"data-testid":"client-id",children:n.r.clientId})," ",t(Ze,{text:n.r.clientId,label:"Copy client id"})]}),t("dt",{children:"Client secret (X-Client-Secret)"}),t("dd",{children:[t("code",{"data-testid":"client-secret",class:"wrap",children:n.r.secret})," ",t(Ze,{text:n.r.secret,label:"Copy secret"})]})]}),t("button",{type:"button",onClick:n.onDone,children:"I have stored the secret"})]})}function fi(n){const[e,r]=y(),[i,a]=y(!1),o=async l=>{l.preventDefault();const p=l.currentTarget,u=new FormData(p),h=u.getAll("scopes").map(String);a(!0),r(void 0);try{const d=await C(Kr,{input:{projectId:n.projectId,keyName:String(u.get("keyName")),scopes:h.length?h:null}});p.reset(),n.onCreated({keyName:d.createApiKey.key.keyName,clientId:d.createApiKey.key.clientId,secret:d.createApiKey.clientSecret,rotated:!1})}catch(d){r(d)}finally{a(!1)}},s=re(e);return t("form",{class:"panel",onSubmit:o,noValidate:!0,children:[t("h2",{children:"New API key"}),t(D,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),t("fieldset",{children:[t("legend",{children:"Scopes (none ticked: every scope)"}),t("div",{class:"checks",children:n.scopes.map(l=>t("label",{class:"check",children:[t("input",{type:"checkbox",name:"scopes",value:l})," ",t("code",{children:l})]},l))}),s.scopes&&t("p",{class:"field-error",children:s.scopes})]}),t(ne,{error:e,fields:["keyName","scopes"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const et=n=>n==="PASSED"?"ok":n==="FAILED"||n==="CANCELLED"?"bad":n==="RETRYING"?"warn":"info";function mi(){const{params:n}=te(),e=n.projectId,[r,i]=y([]),a=r[r.length-1],o=H(()=>C(Wr,{id:e,after:a??null}),[e,a]),s=o.data?.project,l=s?.certificationRuns.edges??[];return t(F,{title:s?`${s.name}: certification`:"Certification",children:[t(fe,{projectId:e,project:s?.name}),t("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&t(yi,{projectId:e,configured:s.authority.configured}),t("h2",{children:"Past runs"}),o.loading&&!s&&t(B,{label:"Loading runs…"}),t(K,{error:o.error,retry:o.reload}),s&&l.length===0&&t(de,{children:"No runs yet."}),l.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:t("table",{children:[t("caption",{class:"sr-only",children:"Certification runs"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Run"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Type"}),t("th",{scope:"col",children:"Issue date"}),t("th",{scope:"col",children:"Started"})]})}),t("tbody",{children:l.map(({node:p})=>t("tr",{children:[t("th",{scope:"row",children:[t("a",{href:`/projects/${e}/certification/${p.id}`,children:p.id.slice(0,8)}),p.failureReason&&t("div",{class:"muted small",children:p.failureReason})]}),t("td",{children:t(N,{tone:et(p.status),children:p.status.toLowerCase()})}),t("td",{children:p.invoiceType}),t("td",{children:p.issueDate}),t("td",{children:ee(p.createdAt)})]},p.id))})]})}),t("div",{class:"pager",children:[r.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function gi(){return new Date().toISOString().slice(0,10)}function yi(n){const e=z(),[r,i]=y(),[a,o]=y(!1),[s,l]=y(),p=async h=>{h.preventDefault();const d=new FormData(h.currentTarget),c=String(d.get("invoicePayload")??"").trim();let f=null;if(l(void 0),c)try{f=JSON.parse(c)}catch(g){l(`Not valid JSON: ${g.message}`);return}o(!0),i(void 0);try{const g=await C(Mr,{input:{projectId:n.projectId,invoiceType:String(d.get("invoiceType")),issueDate:String(d.get("issueDate")),invoicePayload:f}});e.route(`/projects/${n.projectId}/certification/${g.startCertificationRun.id}`)}catch(g){i(g)}finally{o(!1)}},u=re(r);return t("form",{class:"panel",onSubmit:p,noValidate:!0,children:[t("h2",{children:"Start a run"}),!n.configured&&t("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),t("div",{class:"row",children:[t(se,{label:"Invoice type",name:"invoiceType",error:u.invoiceType,children:[t("option",{value:"B2B",children:"B2B: to a business"}),t("option",{value:"B2C",children:"B2C: to a consumer"}),t("option",{value:"B2G",children:"B2G: to a government body"})]}),t(D,{label:"Issue date",name:"issueDate",type:"date",value:gi(),required:!0,error:u.issueDate})]}),t("div",{class:`field${s||u.invoicePayload?" invalid":""}`,children:[t("label",{for:"run-payload",children:"Invoice JSON (optional)"}),t("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),t("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||u.invoicePayload)&&t("p",{class:"field-error",children:s??u.invoicePayload})]}),t(ne,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),t("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function _i(){const{params:n}=te(),{projectId:e,runId:r}=n,i=en(e),[a,o]=y(),[s,l]=y(),[p,u]=y(!1);return G(()=>{let h;return o(void 0),l(void 0),C(Hr,{id:r}).then(d=>{o(d.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(d.certificationRun.status)&&(u(!0),h=qn(Vr,{id:r},f=>o(f.certificationRunUpdated),f=>{u(!1),f&&l(f)}))},l),()=>h?.()},[r]),t(F,{title:`Certification run ${r.slice(0,8)}`,children:[t(fe,{projectId:e,project:i}),t("p",{children:t("a",{href:`/projects/${e}/certification`,children:"All runs"})}),!a&&!s&&t(B,{label:"Loading the run…"}),t(K,{error:s}),a&&t(L,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Status"}),t("dd",{children:[t("span",{"data-testid":"run-status",children:t(N,{tone:et(a.status),children:a.status.toLowerCase()})})," ",p&&t("span",{class:"muted small",role:"status",children:"live"})]}),t("dt",{children:"Invoice type"}),t("dd",{children:a.invoiceType}),t("dt",{children:"Issue date"}),t("dd",{children:a.issueDate}),t("dt",{children:"IRN"}),t("dd",{children:t("code",{children:a.irn??"—"})}),a.failureReason&&t(L,{children:[t("dt",{children:"Why it failed"}),t("dd",{children:a.failureReason})]}),t("dt",{children:"Workflow"}),t("dd",{children:a.temporal.uiUrl?t("a",{href:a.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[a.temporal.workflowId," in the Temporal UI"]}):t("code",{children:a.temporal.workflowId})})]}),t("h2",{children:"Steps"}),a.steps.length===0&&t(de,{children:"No step has started yet."}),t("ol",{class:"steps","aria-live":"polite",children:a.steps.map(h=>t("li",{class:"step",children:t("details",{children:[t("summary",{children:[t(N,{tone:et(h.status),children:h.status.toLowerCase()})," ",t("strong",{children:h.name}),h.durationMs!=null&&t("span",{class:"muted small",children:[" ",h.durationMs," ms"]})]}),t("dl",{class:"facts small",children:[t("dt",{children:"Attempts"}),t("dd",{children:h.attempts}),t("dt",{children:"Started"}),t("dd",{children:ee(h.startedAt)}),t("dt",{children:"Finished"}),t("dd",{children:ee(h.finishedAt)}),t("dt",{children:"HTTP status"}),t("dd",{children:h.httpStatus??"—"}),t("dt",{children:"NRS error id"}),t("dd",{children:h.nrsErrorId??"—"}),t("dt",{children:"Message"}),t("dd",{children:h.message||"—"})]})]})},h.name))})]})]})}const De=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Ne(n){return n.toISOString().slice(0,10)}function vi(){const{params:n}=te(),e=n.projectId,[r,i]=y(()=>Ne(new Date(Date.now()-29*864e5))),[a,o]=y(()=>Ne(new Date)),[s,l]=y(""),p=H(()=>C(Qr,{id:e,from:r||null,to:a||null,keyId:s||null}),[e,r,a,s]),u=p.data?.project,h=u?.usage;return t(F,{title:u?`${u.name}: usage`:"Usage",children:[t(fe,{projectId:e,project:u?.name}),t("form",{class:"filters",onSubmit:d=>d.preventDefault(),"aria-label":"Usage filters",children:[t(se,{label:"API key",name:"keyId",value:s,onChange:d=>l(d.currentTarget.value),children:[t("option",{value:"",children:"All keys"}),u?.apiKeys.edges.map(({node:d})=>t("option",{value:d.id,children:[d.keyName,d.status==="REVOKED"?" (revoked)":""]},d.id))]}),t(D,{label:"From",name:"from",type:"date",value:r,onChange:d=>i(d.currentTarget.value)}),t(D,{label:"To",name:"to",type:"date",value:a,onChange:d=>o(d.currentTarget.value)}),t("button",{type:"button",class:"secondary",onClick:p.reload,children:"Refresh"})]}),p.loading&&!h&&t(B,{label:"Loading usage…"}),t(K,{error:p.error,retry:p.reload}),h&&t(L,{children:[t("p",{children:[t("strong",{"data-testid":"usage-total",children:h.total})," calls from ",h.from," to ",h.to,p.loading&&t("span",{class:"muted small",children:" (updating…)"})]}),h.total===0?t(de,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):t(Ii,{from:h.from,to:h.to,daily:h.daily,operations:h.byOperation.map(d=>d.operation)}),h.byOperation.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:t("table",{children:[t("caption",{children:"Calls per operation"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Operation"}),t("th",{scope:"col",class:"num",children:"Calls"})]})}),t("tbody",{children:h.byOperation.map(d=>t("tr",{children:[t("th",{scope:"row",children:t("code",{children:d.operation})}),t("td",{class:"num",children:d.count})]},d.operation))})]})})]})]})}function Ii(n){const e=[];for(let d=new Date(`${n.from}T00:00:00Z`);Ne(d)<=n.to&&e.length<400;d=new Date(d.getTime()+864e5))e.push(Ne(d));const r=[...n.operations].sort(),i=new Map;for(const d of n.daily)i.has(d.date)||i.set(d.date,new Map),i.get(d.date).set(d.operation,d.count);const a=e.map(d=>[...i.get(d)?.values()??[]].reduce((c,f)=>c+f,0)),o=Math.max(1,...a),s=720,l=220,p=28,u=(s-p)/e.length,h=e.map((d,c)=>a[c]?`${d}: ${a[c]}`:"").filter(Boolean).join("; ");return t("figure",{class:"chart",children:[t("svg",{viewBox:`0 0 ${s} ${l+20}`,role:"img","aria-label":`Calls per day. ${h}`,"data-testid":"usage-chart",children:[t("line",{x1:p,y1:l,x2:s,y2:l,class:"axis"}),t("text",{x:p-4,y:12,class:"tick","text-anchor":"end",children:o}),t("text",{x:p-4,y:l,class:"tick","text-anchor":"end",children:"0"}),e.map((d,c)=>{let f=l;return t("g",{children:[r.map((g,I)=>{const S=i.get(d)?.get(g)??0;if(!S)return null;const $=S/o*(l-16);return f-=$,t("rect",{x:p+c*u+1,y:f,width:Math.max(1,u-2),height:$,fill:De[I%De.length],children:t("title",{children:[d," ",g,": ",S]})},g)}),(c===0||c===e.length-1||e.length<=14&&c%2===0)&&t("text",{x:p+c*u+u/2,y:l+14,class:"tick","text-anchor":"middle",children:d.slice(5)})]},d)})]}),t("figcaption",{children:t("ul",{class:"legend",children:r.map((d,c)=>t("li",{children:[t("svg",{width:"12",height:"12","aria-hidden":"true",children:t("rect",{width:"12",height:"12",fill:De[c%De.length]})})," ",d]},d))})})]})}function bi(){const{params:n}=te(),e=n.orgId,[r,i]=y(""),[a,o]=y([]),s=a[a.length-1],l=H(()=>C(Gr,{org:e,action:r||null,after:s??null}),[e,r,s]),p=H(()=>C(Jr,{org:e}),[e]),u=p.data?.organization.auditChain.brokenEntryId??null,h=l.data?.auditLogs.edges??[];return t(F,{title:"Audit log",actions:t(nn,{orgId:e}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[t(tn,{orgId:e}),t($i,{chain:p.data?.organization.auditChain,loading:p.loading,error:p.error,reload:p.reload,brokenOnPage:u!==null&&h.some(d=>d.node.id===u)}),t("form",{class:"filters",onSubmit:d=>d.preventDefault(),"aria-label":"Audit filters",children:t(se,{label:"Action",name:"action",value:r,onChange:d=>{i(d.currentTarget.value),o([])},children:[t("option",{value:"",children:"All actions"}),l.data?.auditActions.map(d=>t("option",{value:d,children:d},d))]})}),l.loading&&!l.data&&t(B,{label:"Loading the audit log…"}),t(K,{error:l.error,retry:l.reload}),l.data&&h.length===0&&t(de,{children:["No entries",r?` for ${r}`:"","."]}),h.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:t("table",{"data-testid":"audit-table",children:[t("caption",{class:"sr-only",children:"Audit entries"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"When"}),t("th",{scope:"col",children:"Action"}),t("th",{scope:"col",children:"Actor"}),t("th",{scope:"col",children:"Target"}),t("th",{scope:"col",children:"From"}),t("th",{scope:"col",children:"Hash"})]})}),t("tbody",{children:h.map(({node:d})=>t("tr",{class:d.id===u?"broken":void 0,"data-entry":d.id,children:[t("td",{children:ee(d.createdAt)}),t("th",{scope:"row",children:[t("code",{children:d.action}),d.id===u&&t("div",{children:t(N,{tone:"bad",children:"chain breaks here"})})]}),t("td",{children:[d.actor.type," ",t("code",{class:"small",children:d.actor.id.slice(0,8)})]}),t("td",{children:[d.target.type," ",t("code",{class:"small",children:d.target.id.slice(0,8)})]}),t("td",{class:"small",children:[d.ip,t("div",{class:"muted",children:d.requestId.slice(0,8)})]}),t("td",{children:t("code",{class:"small",title:`previous ${d.prevHash}`,children:d.hash.slice(0,12)})})]},d.id))})]})}),t("div",{class:"pager",children:[a.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),l.data?.auditLogs.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>o([...a,l.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function $i(n){const e=n.chain,r=n.loading;return t("section",{class:"panel chain","aria-labelledby":"chain-title","aria-busy":r?"true":"false","data-testid":"audit-chain",children:[t("div",{class:"chain-head",children:[t("h2",{id:"chain-title",children:"Hash chain"}),(e||n.error)&&t("button",{type:"button",class:"secondary",onClick:n.reload,disabled:r,children:r?"Verifying…":"Verify again"})]}),r&&!e&&t(B,{label:"Verifying the hash chain…"}),t(K,{error:n.error}),e&&!n.error&&t(L,{children:[e.valid?t("div",{class:"verdict ok",role:"status","data-testid":"chain-verdict","data-state":"verified",children:t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✓ "}),"Verified."]})," ",e.entries===0?"The chain is empty: nothing has been recorded yet.":`All ${e.entries} ${e.entries===1?"entry carries its":"entries carry their"} keyed hash and link to the one before, and the head names the newest.`]})}):t("div",{class:"verdict bad",role:"alert","data-testid":"chain-verdict","data-state":"broken",children:[t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✗ "}),"Broken:"]})," ",t("span",{"data-testid":"chain-problem",children:e.problem})]}),e.brokenEntryId&&t("p",{children:["First entry at fault: ",t("code",{class:"wrap","data-testid":"chain-broken-entry",children:e.brokenEntryId})," ",n.brokenOnPage?"(marked in the entries below).":"(not on this page: clear the filter or page through older entries)."]}),t("p",{class:"small",children:"The log can no longer prove its history. Keep the entries as they are and investigate."})]}),t("dl",{class:"facts",children:[t("dt",{children:"Entries"}),t("dd",{"data-testid":"chain-entries",children:e.entries}),t("dt",{children:"Head"}),t("dd",{children:e.headSeq===0?"none yet":t(L,{children:["entry ",t("span",{"data-testid":"chain-head-seq",children:e.headSeq}),","," ",t("code",{class:"wrap","data-testid":"chain-head-hash",children:e.headHash})," ",t(Ze,{text:e.headHash,label:"Copy head hash"})]})}),t("dt",{children:"Verified"}),t("dd",{children:t("time",{dateTime:e.verifiedAt,children:Si(e.verifiedAt)})})]}),e.headSeq>0&&t("p",{class:"hint",children:["Keep the head's position and hash: a later chain whose entry ",e.headSeq," has another hash, or is gone, was rewritten or truncated. Verifications are reused for 10 seconds."]})]})]})}function Si(n){return new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"medium"})}function rn(n){return n.map(String).join("\0")}function ki(n){const e=[],r=new Map,i=(a,o,s,l,p)=>{const u=e.length;if(Array.isArray(a)&&a.length>0)e.push(`${s}${l}[`),a.forEach((h,d)=>i(h,[...o,d],`${s}  `,"",d<a.length-1?",":"")),e.push(`${s}]${p}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const h=Object.entries(a);e.push(`${s}${l}{`),h.forEach(([d,c],f)=>i(c,[...o,d],`${s}  `,`${JSON.stringify(d)}: `,f<h.length-1?",":"")),e.push(`${s}}${p}`)}else e.push(`${s}${l}${JSON.stringify(a)}${p}`);r.set(rn(o),[u,e.length-1])};return i(n,[],"","",""),{lines:e,spans:r}}function wi(n,e){for(let r=e.length;r>=0;r--){const i=n.get(rn(e.slice(0,r)));if(i)return r===e.length?i:[i[0],i[0]]}}function ji(n){const{lines:e,spans:r}=ki(n.value),i=new Map;for(const a of n.marks){const o=wi(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return t("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:t("ol",{children:e.map((a,o)=>{const s=i.get(o);return t("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[t("code",{children:a}),s&&s.length>0&&t("span",{class:"sr-only",children:[" problem: ",s.map(l=>l.label).join("; ")]})]},o)})})})}function Fe(n){if(!n.trim())return{error:"Paste or upload an invoice first."};try{const e=JSON.parse(n);return!e||typeof e!="object"||Array.isArray(e)?{error:"The invoice must be a JSON object."}:{value:e}}catch(e){return{error:`Not valid JSON: ${e.message}`}}}function Rt(n){const e=n.map(r=>typeof r=="number"?r:String(r));return e[0]==="input"&&e[1]==="payload"?e.slice(2):e}function Di(){const{params:n}=te(),e=n.projectId,r=en(e),[i,a]=y(""),[o,s]=y("B2B"),[l,p]=y(""),[u,h]=y(),[d,c]=y(),[f,g]=y(),[I,S]=y(),[$,b]=y(),[m,q]=y(""),[U,V]=y(),[ie,J]=y(""),[R,T]=y("");G(()=>()=>{$&&URL.revokeObjectURL($)},[$]);const W=v=>{a(v);const{value:w}=Fe(v);w&&(typeof w.issue_date=="string"&&T(w.issue_date),typeof w.irn=="string"&&J(w.irn.split("-").slice(0,-2).join("-")||w.irn),typeof w.invoice_kind=="string"&&s(w.invoice_kind.toUpperCase()))},Ue=async(v,w)=>{q(v),V(void 0);try{await w()}catch(M){V(M)}finally{q("")}},an=()=>{const{value:v,error:w}=Fe(i);h(w),v&&Ue("validate",async()=>{const M=await C(Yr,{projectId:e,input:{invoiceTypeCode:o,taxAuthorityCode:"NRS",payload:v,profile:l==="NRS"||l==="STRICT"?l:null}});c({value:v,report:M.validateInvoice,profile:M.project.validationProfile})})},sn=v=>{v.preventDefault(),Ue("irn",async()=>{const w=await C(Xr,{projectId:e,input:{invoiceReference:ie,invoiceTypeCode:o,taxAuthorityCode:"NRS",issueDate:R}});g(w.generateIrn);const M=await C(Zr,{projectId:e,input:{irn:w.generateIrn.irn}});S(M.invoiceQrCode)})},cn=()=>{const{value:v,error:w}=Fe(i);h(w),v&&Ue("render",async()=>{const M=await C(ei,{projectId:e,input:{invoiceType:o,payload:v}});if(!M.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const ln=Uint8Array.from(atob(M.renderInvoice.pdfBase64),un=>un.charCodeAt(0));b(URL.createObjectURL(new Blob([ln],{type:"application/pdf"})))})},dn=async v=>{const w=v.currentTarget.files?.[0];if(w){if(w.size>9e5){h("The file is larger than the 900 KB an invoice may be.");return}W(await w.text())}},Oe=d?[...d.report.errors,...d.report.warnings]:[],pt=re(U);return t(F,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[t(fe,{projectId:e,project:r}),t("div",{class:"workbench",children:[t("div",{class:"panel",children:[t("div",{class:"row",children:[t(se,{label:"Invoice kind",name:"kind",value:o,onChange:v=>s(v.currentTarget.value),children:[t("option",{value:"B2B",children:"B2B"}),t("option",{value:"B2C",children:"B2C"}),t("option",{value:"B2G",children:"B2G"})]}),t(se,{label:"Validation profile",name:"profile",value:l,onChange:v=>p(v.currentTarget.value),children:[t("option",{value:"",children:"The project's profile"}),t("option",{value:"NRS",children:"NRS: what NRS refuses is an error"}),t("option",{value:"STRICT",children:"Strict: consistency checks are errors too"})]}),t("div",{class:"field",children:[t("label",{for:"wb-file",children:"Upload a JSON file"}),t("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:dn})]})]}),t("div",{class:`field${u?" invalid":""}`,children:[t("label",{for:"wb-json",children:"Invoice JSON"}),t("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:i,"aria-invalid":u?"true":void 0,"aria-describedby":u?"wb-json-error":void 0,onInput:v=>W(v.currentTarget.value)}),u&&t("p",{class:"field-error",id:"wb-json-error",children:u})]}),t("div",{class:"buttons",children:[t("button",{type:"button",onClick:an,disabled:!!m,children:m==="validate"?"Validating…":"Validate"}),t("button",{type:"button",class:"secondary",onClick:cn,disabled:!!m,children:m==="render"?"Rendering…":"Preview PDF"})]}),t(ne,{error:U,fields:["invoiceReference","issueDate"]})]}),d&&t("section",{class:"panel","aria-labelledby":"wb-result",children:[t("h2",{id:"wb-result",tabIndex:-1,ref:v=>v?.focus(),children:[d.report.valid?t(N,{tone:"ok",children:"valid"}):t(N,{tone:"bad",children:"invalid"})," ",d.report.errors.length," errors, ",d.report.warnings.length," warnings"]}),t("p",{class:"muted small",children:["Schema ",d.report.schemaVersion,", rules ",d.report.ruleset,l===""&&`, the project's profile (${d.profile.toLowerCase()})`]}),Oe.length>0&&t("ol",{class:"issues","data-testid":"issues",children:Oe.map((v,w)=>{const M=Rt(v.loc);return t("li",{class:v.severity,children:[t(N,{tone:v.severity==="error"?"bad":"warn",children:v.severity})," ",t("code",{children:M.join(".")||"(invoice)"}),": ",v.message," ",t("span",{class:"muted small",children:v.rule})," ",t("a",{href:`#line-issue-${w}`,children:"show"})]},w)})}),t(ji,{value:d.value,marks:Oe.map((v,w)=>({path:Rt(v.loc),label:v.message,id:`issue-${w}`}))})]}),t("form",{class:"panel",onSubmit:sn,noValidate:!0,children:[t("h2",{children:"IRN and QR code"}),t("div",{class:"row",children:[t(D,{label:"Invoice reference",name:"invoiceReference",value:ie,onInput:v=>J(v.currentTarget.value),error:pt.invoiceReference}),t(D,{label:"Issue date",name:"issueDate",type:"date",value:R,onInput:v=>T(v.currentTarget.value),error:pt.issueDate})]}),t("button",{type:"submit",disabled:!!m,children:m==="irn"?"Generating…":"Generate IRN and QR"}),f&&t(Yt,{children:["IRN ",t("code",{"data-testid":"irn",children:f.irn})]}),I&&t("div",{class:"qr",children:[I.qrPngBase64&&t("img",{src:`data:image/png;base64,${I.qrPngBase64}`,alt:`QR code of ${I.irn}`,width:180,height:180}),t("p",{class:"small",children:["Encrypted payload (",I.encryption,", key ",I.keyFingerprint.slice(0,16),"…):"]}),t("code",{class:"wrap small",children:I.qrPayload})]})]}),$&&t("section",{class:"panel","aria-labelledby":"wb-pdf",children:[t("h2",{id:"wb-pdf",children:"PDF preview"}),t("iframe",{src:$,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf",onLoad:v=>{v.currentTarget.dataset.loaded="true"}},$),t("p",{children:t("a",{href:$,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function on(n){return t(F,{title:n.error?"Something went wrong":"Page not found",children:[n.error?t(K,{error:n.error}):t("p",{children:"There is nothing at this address."}),t("p",{children:t("a",{href:"/",children:"Go to your projects"})})]})}const Ai=he(()=>ce(()=>import("./invoices-D0Blx5qw.js"),__vite__mapDeps([0,1])).then(n=>n.Invoices)),Ci=he(()=>ce(()=>import("./invoices-D0Blx5qw.js"),__vite__mapDeps([0,1])).then(n=>n.InvoiceDetail)),Ri=he(()=>ce(()=>import("./webhooks-D-C9fbTg.js"),__vite__mapDeps([2,1])).then(n=>n.Webhooks)),Ei=he(()=>ce(()=>import("./webhooks-D-C9fbTg.js"),__vite__mapDeps([2,1])).then(n=>n.WebhookDeliveries)),Pi=he(()=>ce(()=>import("./faults-DNEYM5NC.js"),__vite__mapDeps([3,1])).then(n=>n.SandboxFaults)),Ti=he(()=>ce(()=>import("./inbox-BuP-Ktqe.js"),__vite__mapDeps([4,1])).then(n=>n.Inbox)),xi=["/login","/signup"];function Ni(){return t(Se,{children:t(qi,{})})}function qi(){const n=En(Z),e=z();G(()=>{n.status==="unknown"&&Le()},[n.status]);const r=xi.includes(e.path);return G(()=>{if(n.status==="signedOut"&&!r){const i=e.url!=="/"?`?next=${encodeURIComponent(e.url)}`:"";e.route(`/login${i}`,!0)}},[n.status,r,e.url]),n.status==="unknown"?t("main",{id:"main",class:"center",children:t(B,{label:"Signing you in…"})}):r||n.status!=="signedIn"?t("main",{id:"main",class:"center",children:t(Qe,{children:[t(P,{path:"/login",component:oi}),t(P,{path:"/signup",component:ai}),t(P,{default:!0,component:()=>t(B,{})})]})}):t(Oi,{email:n.user?.email??"",children:t(Qe,{children:[t(P,{path:"/",component:Li}),t(P,{path:"/orgs",component:si}),t(P,{path:"/orgs/:orgId/projects",component:ci}),t(P,{path:"/orgs/:orgId/audit",component:bi}),t(P,{path:"/projects/:projectId",component:di}),t(P,{path:"/projects/:projectId/keys",component:pi}),t(P,{path:"/projects/:projectId/certification",component:mi}),t(P,{path:"/projects/:projectId/certification/:runId",component:_i}),t(P,{path:"/projects/:projectId/usage",component:vi}),t(P,{path:"/projects/:projectId/workbench",component:Di}),t(P,{path:"/projects/:projectId/invoices",component:Ai}),t(P,{path:"/projects/:projectId/invoices/:invoiceId",component:Ci}),t(P,{path:"/projects/:projectId/webhooks",component:Ri}),t(P,{path:"/projects/:projectId/webhooks/:endpointId",component:Ei}),t(P,{path:"/projects/:projectId/sandbox",component:Pi}),t(P,{path:"/projects/:projectId/inbox",component:Ti}),t(P,{default:!0,component:on})]})})}function Li(){const n=z(),e=H(()=>C(ut),[]);return G(()=>{const r=e.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!e.data)return;const i=localStorage.getItem(pe),a=r.find(o=>o===i)??r[0];n.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[e.data]),e.error?t(on,{error:e.error}):t(B,{})}async function Ui(n){Nn();try{await C(xr)}catch{}try{await lt(Nr,{})}catch{}dt(),n("/login")}function Oi(n){const e=z();return t(L,{children:[t("a",{class:"skip",href:"#main",children:"Skip to content"}),t("header",{class:"top",children:[t("a",{class:"brand",href:"/",children:"einvoice"}),t("nav",{"aria-label":"Account",class:"account",children:[t("a",{href:"/orgs","aria-current":e.path==="/orgs"?"page":void 0,children:"Organizations"}),t("span",{class:"email",title:n.email,children:n.email}),t("button",{type:"button",class:"secondary",onClick:()=>{Ui(e.route)},children:"Log out"})]})]}),t("main",{id:"main",children:n.children})]})}_n(t(Ni,{}),document.getElementById("app"));export{x as A,N as B,Ze as C,K as E,D as F,B as L,Yt as N,fe as P,L as S,ne as a,te as b,en as c,y as d,ee as e,re as f,de as g,G as h,F as i,H as j,se as k,Ct as l,j as m,C as r,qn as s,t as u};
