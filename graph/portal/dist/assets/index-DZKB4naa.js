const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/invoices-CPEjJVP_.js","assets/ops-submission-D_R4conq.js","assets/webhooks-BdL7D8Iy.js","assets/faults-BnnHoN6V.js","assets/inbox-DkmzjCsX.js"])))=>i.map(i=>d[i]);
var Se,w,Nt,X,yt,qt,Lt,ze,Ee,Ie,Ut,it,He,Ve,Ot,Ne={},qe=[],vn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,ke=Array.isArray;function G(n,e){for(var r in e)n[r]=e[r];return n}function ot(n){n&&n.parentNode&&n.parentNode.removeChild(n)}function Z(n,e,r){var i,a,o,s={};for(o in e)o=="key"?i=e[o]:o=="ref"?a=e[o]:s[o]=e[o];if(arguments.length>2&&(s.children=arguments.length>3?Se.call(arguments,2):r),typeof n=="function"&&n.defaultProps!=null)for(o in n.defaultProps)s[o]===void 0&&(s[o]=n.defaultProps[o]);return be(n,s,i,a,null)}function be(n,e,r,i,a){var o={type:n,props:e,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++Nt,__i:-1,__u:0};return a==null&&w.vnode!=null&&w.vnode(o),o}function q(n){return n.children}function Te(n,e){this.props=n,this.context=e}function ae(n,e){if(e==null)return n.__?ae(n.__,n.__i+1):null;for(var r;e<n.__k.length;e++)if((r=n.__k[e])!=null&&r.__e!=null)return r.__e;return typeof n.type=="function"?ae(n):null}function _n(n){if(n.__P&&n.__d){var e=n.__v,r=e.__e,i=[],a=[],o=G({},e);o.__v=e.__v+1,w.vnode&&w.vnode(o),at(n.__P,o,e,n.__n,n.__P.namespaceURI,32&e.__u?[r]:null,i,r??ae(e),!!(32&e.__u),a),o.__v=e.__v,o.__.__k[o.__i]=o,Mt(i,o,a),e.__e=e.__=null,o.__e!=r&&Bt(o)}}function Bt(n){if((n=n.__)!=null&&n.__c!=null)return n.__e=n.__c.base=null,n.__k.some(function(e){if(e!=null&&e.__e!=null)return n.__e=n.__c.base=e.__e}),Bt(n)}function Qe(n){(!n.__d&&(n.__d=!0)&&X.push(n)&&!Le.__r++||yt!=w.debounceRendering)&&((yt=w.debounceRendering)||qt)(Le)}function Le(){try{for(var n,e=1;X.length;)X.length>e&&X.sort(Lt),n=X.shift(),e=X.length,_n(n)}finally{X.length=Le.__r=0}}function Kt(n,e,r,i,a,o,s,d,h,u,p){var l,c,f,y,I,S,k=i&&i.__k||qe,b=e.length;for(h=In(r,e,k,h,b),l=0;l<b;l++)(f=r.__k[l])!=null&&(c=f.__i!=-1&&k[f.__i]||Ne,f.__i=l,S=at(n,f,c,a,o,s,d,h,u,p),y=f.__e,f.ref&&c.ref!=f.ref&&(c.ref&&st(c.ref,null,f),p.push(f.ref,f.__c||y,f)),I==null&&y!=null&&(I=y),4&f.__u?(h=Ft(f,h,n),c.__e&&(c.__e=null)):typeof f.type=="function"&&S!==void 0?h=S:y&&(h=y.nextSibling),f.__u&=-7);return r.__e=I,h}function In(n,e,r,i,a){var o,s,d,h,u,p=r.length,l=p,c=0;for(n.__k=new Array(a),o=0;o<a;o++)(s=e[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=n.__k[o]=be(null,s,null,null,null):ke(s)?s=n.__k[o]=be(q,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=n.__k[o]=be(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):n.__k[o]=s,h=o+c,s.__=n,s.__b=n.__b+1,d=null,(u=s.__i=bn(s,r,h,l))!=-1&&(l--,(d=r[u])&&(d.__u|=2)),d==null||d.__v==null?(u==-1&&(a>p?c--:a<p&&c++),typeof s.type!="function"&&(s.__u|=4)):u!=h&&(u==h-1?c--:u==h+1?c++:(u>h?c--:c++,s.__u|=4))):n.__k[o]=null;if(l)for(o=0;o<p;o++)(d=r[o])!=null&&(2&d.__u)==0&&(d.__e==i&&(i=ae(d)),Vt(d,d));return i}function Ft(n,e,r){var i,a;if(typeof n.type=="function"){for(i=n.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=n,e=Ft(i[a],e,r));return e}n.__e!=e&&(e&&n.type&&!e.parentNode&&(e=ae(n)),e=r.insertBefore(n.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function zt(n,e){return e=e||[],n==null||typeof n=="boolean"||(ke(n)?n.some(function(r){zt(r,e)}):e.push(n)),e}function bn(n,e,r,i){var a,o,s,d=n.key,h=n.type,u=e[r],p=u!=null&&(2&u.__u)==0;if(u===null&&d==null||p&&d==u.key&&h==u.type)return r;if(i>(p?1:0)){for(a=r-1,o=r+1;a>=0||o<e.length;)if((u=e[s=a>=0?a--:o++])!=null&&(2&u.__u)==0&&d==u.key&&h==u.type)return s}return-1}function vt(n,e,r){e[0]=="-"?n.setProperty(e,r??""):n[e]=r==null?"":typeof r!="number"||vn.test(e)?r:r+"px"}function Ae(n,e,r,i,a){var o,s;e:if(e=="style")if(typeof r=="string")n.style.cssText=r;else{if(typeof i=="string"&&(n.style.cssText=i=""),i)for(e in i)r&&e in r||vt(n.style,e,"");if(r)for(e in r)i&&r[e]==i[e]||vt(n.style,e,r[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(Ut,"$1")),s=e.toLowerCase(),e=s in n||e=="onFocusOut"||e=="onFocusIn"?s.slice(2):e.slice(2),n.l||(n.l={}),n.l[e+o]=r,r?i?r[Ie]=i[Ie]:(r[Ie]=it,n.addEventListener(e,o?Ve:He,o)):n.removeEventListener(e,o?Ve:He,o);else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in n)try{n[e]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&e[4]!="-"?n.removeAttribute(e):n.setAttribute(e,e=="popover"&&r==1?"":r))}}function _t(n){return function(e){if(this.l){var r=this.l[e.type+n];if(e[Ee]==null)e[Ee]=it++;else if(e[Ee]<r[Ie])return;return r(w.event?w.event(e):e)}}}function at(n,e,r,i,a,o,s,d,h,u){var p,l,c,f,y,I,S,k,b,m,L,B,V,Y,Q,R,T=e.type;if(e.constructor!==void 0)return null;128&r.__u&&(h=!!(32&r.__u),o=[d=e.__e=r.__e]),(p=w.__b)&&p(e);e:if(typeof T=="function"){l=s.length;try{if(b=e.props,m=T.prototype&&T.prototype.render,L=(p=T.contextType)&&i[p.__c],B=p?L?L.props.value:p.__:i,r.__c?k=(c=e.__c=r.__c).__=c.__E:(m?e.__c=c=new T(b,B):(e.__c=c=new Te(b,B),c.constructor=T,c.render=Sn),L&&L.sub(c),c.state||(c.state={}),c.__n=i,f=c.__d=!0,c.__h=[],c._sb=[]),m&&c.__s==null&&(c.__s=c.state),m&&T.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=G({},c.__s)),G(c.__s,T.getDerivedStateFromProps(b,c.__s))),y=c.props,I=c.state,c.__v=e,f)m&&T.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),m&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(m&&T.getDerivedStateFromProps==null&&b!==y&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(b,B),e.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(b,c.__s,B)===!1){e.__v!=r.__v&&(c.props=b,c.state=c.__s,c.__d=!1),e.__e=r.__e,e.__k=r.__k,e.__k.some(function(U){U&&(U.__=e)}),qe.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),d=ae(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(b,c.__s,B),m&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(y,I,S)})}if(c.context=B,c.props=b,c.__P=n,c.__e=!1,V=w.__r,Y=0,m)c.state=c.__s,c.__d=!1,V&&V(e),p=c.render(c.props,c.state,c.context),qe.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,V&&V(e),p=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++Y<25);c.state=c.__s,c.getChildContext!=null&&(i=G(G({},i),c.getChildContext())),m&&!f&&c.getSnapshotBeforeUpdate!=null&&(S=c.getSnapshotBeforeUpdate(y,I)),Q=p!=null&&p.type===q&&p.key==null?Ht(p.props.children):p,d=Kt(n,ke(Q)?Q:[Q],e,r,i,a,o,s,d,h,u),c.base=e.__e,e.__u&=-161,c.__h.length&&s.push(c),k&&(c.__E=c.__=null)}catch(U){if(s.length=l,e.__v=null,h||o!=null){if(U.then){for(e.__u|=h?160:128;d&&d.nodeType==8&&d.nextSibling;)d=d.nextSibling;o!=null&&(o[o.indexOf(d)]=null),e.__e=d}else if(o!=null)for(R=o.length;R--;)ot(o[R])}else e.__e=r.__e;e.__k==null&&(e.__k=r.__k||[]),U.then||Wt(e),w.__e(U,e,r)}}else o==null&&e.__v==r.__v?(e.__k=r.__k,e.__e=r.__e):d=e.__e=$n(r.__e,e,r,i,a,o,s,h,u);return(p=w.diffed)&&p(e),128&e.__u?void 0:d}function Wt(n){n&&(n.__c&&(n.__c.__e=!0),n.__k&&n.__k.some(Wt))}function Mt(n,e,r){for(var i=0;i<r.length;i++)st(r[i],r[++i],r[++i]);w.__c&&w.__c(e,n),n.some(function(a){try{n=a.__h,a.__h=[],n.some(function(o){o.call(a)})}catch(o){w.__e(o,a.__v)}})}function Ht(n){return typeof n!="object"||n==null||n.__b>0?n:ke(n)?n.map(Ht):n.constructor!==void 0?null:G({},n)}function $n(n,e,r,i,a,o,s,d,h){var u,p,l,c,f,y,I,S=r.props||Ne,k=e.props,b=e.type;if(b=="svg"?a="http://www.w3.org/2000/svg":b=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(u=0;u<o.length;u++)if((f=o[u])&&"setAttribute"in f==!!b&&(b?f.localName==b:f.nodeType==3)){n=f,o[u]=null;break}}if(n==null){if(b==null)return document.createTextNode(k);n=document.createElementNS(a,b,k.is&&k),d&&(w.__m&&w.__m(e,o),d=!1),o=null}if(b==null)S===k||d&&n.data==k||(n.data=k);else{if(o=b=="textarea"&&k.defaultValue!=null?null:o&&Se.call(n.childNodes),!d&&o!=null)for(S={},u=0;u<n.attributes.length;u++)S[(f=n.attributes[u]).name]=f.value;for(u in S)f=S[u],u=="dangerouslySetInnerHTML"?l=f:u=="children"||u in k||u=="value"&&"defaultValue"in k||u=="checked"&&"defaultChecked"in k||Ae(n,u,null,f,a);for(u in k)f=k[u],u=="children"?c=f:u=="dangerouslySetInnerHTML"?p=f:u=="value"?y=f:u=="checked"?I=f:d&&typeof f!="function"||S[u]===f||Ae(n,u,f,S[u],a);if(p)d||l&&(p.__html==l.__html||p.__html==n.innerHTML)||(n.innerHTML=p.__html),e.__k=[];else if(l&&(n.innerHTML=""),Kt(e.type=="template"?n.content:n,ke(c)?c:[c],e,r,i,b=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&ae(r,0),d,h),o!=null)for(u=o.length;u--;)ot(o[u]);d&&b!="textarea"||(u="value",b=="progress"&&y==null?n.removeAttribute("value"):y!=null&&(y!==n[u]||b=="progress"&&!y||b=="option"&&y!=S[u])&&Ae(n,u,y,S[u],a),u="checked",I!=null&&I!=n[u]&&Ae(n,u,I,S[u],a))}return n}function st(n,e,r){try{if(typeof n=="function"){var i=typeof n.__u=="function";i&&n.__u(),i&&e==null||(n.__u=n(e))}else n.current=e}catch(a){w.__e(a,r)}}function Vt(n,e,r){var i,a;if(w.unmount&&w.unmount(n),(i=n.ref)&&(i.current&&i.current!=n.__e||st(i,null,e)),(i=n.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){w.__e(o,e)}i.base=i.__P=i.__n=null}if(i=n.__k)for(a=0;a<i.length;a++)i[a]&&Vt(i[a],e,r||typeof n.type!="function");r||ot(n.__e),n.__c=n.__=n.__e=void 0}function Sn(n,e,r){return this.constructor(n,r)}function kn(n,e,r){var i,a,o,s;e==document&&(e=document.documentElement),w.__&&w.__(n,e),a=(i=!1)?null:e.__k,o=[],s=[],at(e,n=e.__k=Z(q,null,[n]),a||Ne,Ne,e.namespaceURI,a?null:e.firstChild?Se.call(e.childNodes):null,o,a?a.__e:e.firstChild,i,s),Mt(o,n,s),n.props.children=null}function It(n,e,r){var i,a,o,s,d=G({},n.props);for(o in n.type&&n.type.defaultProps&&(s=n.type.defaultProps),e)o=="key"?i=e[o]:o=="ref"?a=e[o]:d[o]=e[o]===void 0&&s!=null?s[o]:e[o];return arguments.length>2&&(d.children=arguments.length>3?Se.call(arguments,2):r),be(n.type,d,i||n.key,a||n.ref,null)}function Qt(n){function e(r){var i,a;return this.getChildContext||(i=new Set,(a={})[e.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,Qe(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return e.__c="__cC"+Ot++,e.__=n,e.Provider=e.__l=(e.Consumer=function(r,i){return r.children(i)}).contextType=e,e}Se=qe.slice,w={__e:function(n,e,r,i){for(var a,o,s;e=e.__;)if((a=e.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(n)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(n,i||{}),s=a.__d),s)return a.__E=a}catch(d){n=d}throw n}},Nt=0,Te.prototype.setState=function(n,e){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=G({},this.state),typeof n=="function"&&(n=n(G({},r),this.props)),n&&G(r,n),n!=null&&this.__v&&(e&&this._sb.push(e),Qe(this))},Te.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),Qe(this))},Te.prototype.render=q,X=[],qt=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Lt=function(n,e){return n.__v.__b-e.__v.__b},Le.__r=0,ze=Math.random().toString(8),Ee="__d"+ze,Ie="__a"+ze,Ut=/(PointerCapture)$|Capture$/i,it=0,He=_t(!1),Ve=_t(!0),Ot=0;var wn=0;function t(n,e,r,i,a,o){e||(e={});var s,d,h=e;if("ref"in h)for(d in h={},e)d=="ref"?s=e[d]:h[d]=e[d];var u={type:n,props:h,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--wn,__i:-1,__u:0,__source:a,__self:o};if(typeof n=="function"&&(s=n.defaultProps))for(d in s)h[d]===void 0&&(h[d]=s[d]);return w.vnode&&w.vnode(u),u}const jn=(function(){const e=typeof document<"u"&&document.createElement("link").relList;return e&&e.supports&&e.supports("modulepreload")?"modulepreload":"preload"})(),Dn=function(n){return"/"+n},bt={},de=function(e,r,i){let a=Promise.resolve();if(r&&r.length>0){let h=function(u){return Promise.all(u.map(p=>Promise.resolve(p).then(l=>({status:"fulfilled",value:l}),l=>({status:"rejected",reason:l}))))};document.getElementsByTagName("link");const s=document.querySelector("meta[property=csp-nonce]"),d=s?.nonce||s?.getAttribute("nonce");a=h(r.map(u=>{if(u=Dn(u),u in bt)return;bt[u]=!0;const p=u.endsWith(".css"),l=p?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${u}"]${l}`))return;const c=document.createElement("link");if(c.rel=p?"stylesheet":jn,p||(c.as="script"),c.crossOrigin="",c.href=u,d&&c.setAttribute("nonce",d),document.head.appendChild(c),p)return new Promise((f,y)=>{c.addEventListener("load",f),c.addEventListener("error",()=>y(new Error(`Unable to preload CSS for ${u}`)))})}))}function o(s){const d=new Event("vite:preloadError",{cancelable:!0});if(d.payload=s,window.dispatchEvent(d),!d.defaultPrevented)throw s}return a.then(s=>{for(const d of s||[])d.status==="rejected"&&o(d.reason);return e().catch(o)})};var se,C,We,$t,$e=0,Gt=[],P=w,St=P.__b,kt=P.__r,wt=P.diffed,jt=P.__c,Dt=P.unmount,At=P.__;function we(n,e){P.__h&&P.__h(C,n,$e||e),$e=0;var r=C.__H||(C.__H={__:[],__h:[]});return n>=r.__.length&&r.__.push({}),r.__[n]}function g(n){return $e=1,ct(Yt,n)}function ct(n,e,r){var i=we(se++,2);if(i.t=n,!i.__c&&(i.__=[Yt(void 0,e),function(d){var h=i.__N?i.__N[0]:i.__[0],u=i.t(h,d);h!==u&&(i.__N=[u,i.__[1]],i.__c.setState({}))}],i.__c=C,!C.__f)){var a=function(d,h,u){if(!i.__c.__H)return!0;var p=!1,l=i.__c.props!==d;if(i.__c.__H.__.some(function(f){if(f.__N){p=!0;var y=f.__[0];f.__=f.__N,f.__N=void 0,y!==f.__[0]&&(l=!0)}}),o){var c=o.call(this,d,h,u);return p?c||l:c}return!p||l};C.__f=!0;var o=C.shouldComponentUpdate,s=C.componentWillUpdate;C.componentWillUpdate=function(d,h,u){if(this.__e){var p=o;o=void 0,a(d,h,u),o=p}s&&s.call(this,d,h,u)},C.shouldComponentUpdate=a}return i.__N||i.__}function J(n,e){var r=we(se++,3);!P.__s&&lt(r.__H,e)&&(r.__=n,r.u=e,C.__H.__h.push(r))}function Jt(n,e){var r=we(se++,4);!P.__s&&lt(r.__H,e)&&(r.__=n,r.u=e,C.__h.push(r))}function K(n){return $e=5,je(function(){return{current:n}},[])}function je(n,e){var r=we(se++,7);return lt(r.__H,e)&&(r.__=n(),r.__H=e,r.__h=n),r.__}function An(n,e){return $e=8,je(function(){return n},e)}function dt(n){var e=C.context[n.__c],r=we(se++,9);return r.c=n,e?(r.__==null&&(r.__=!0,e.sub(C)),e.props.value):n.__}function Cn(){for(var n;n=Gt.shift();){var e=n.__H;if(n.__P&&e)try{e.__h.some(xe),e.__h.some(Ge),e.__h=[]}catch(r){e.__h=[],P.__e(r,n.__v)}}}P.__b=function(n){C=null,St&&St(n)},P.__=function(n,e){n&&e.__k&&e.__k.__m&&(n.__m=e.__k.__m),At&&At(n,e)},P.__r=function(n){kt&&kt(n),se=0;var e=(C=n.__c).__H;e&&(We===C?(e.__h=[],C.__h=[],e.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(e.__h.some(xe),e.__h.some(Ge),e.__h=[],se=0)),We=C},P.diffed=function(n){wt&&wt(n);var e=n.__c;e&&e.__H&&(e.__H.__h.length&&(Gt.push(e)!==1&&$t===P.requestAnimationFrame||(($t=P.requestAnimationFrame)||Rn)(Cn)),e.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),We=C=null},P.__c=function(n,e){e.some(function(r){try{r.__h.some(xe),r.__h=r.__h.filter(function(i){return!i.__||Ge(i)})}catch(i){e.some(function(a){a.__h&&(a.__h=[])}),e=[],P.__e(i,r.__v)}}),jt&&jt(n,e)},P.unmount=function(n){Dt&&Dt(n);var e,r=n.__c;r&&r.__H&&(r.__H.__.some(function(i){try{xe(i)}catch(a){e=a}}),r.__H=void 0,e&&P.__e(e,r.__v))};var Ct=typeof requestAnimationFrame=="function";function Rn(n){var e,r=function(){clearTimeout(i),Ct&&cancelAnimationFrame(e),setTimeout(n)},i=setTimeout(r,35);Ct&&(e=requestAnimationFrame(r))}function xe(n){var e=C,r=n.__c;typeof r=="function"&&(n.__c=void 0,r()),C=e}function Ge(n){var e=C;n.__c=n.__(),C=e}function lt(n,e){return!n||n.length!==e.length||e.some(function(r,i){return r!==n[i]})}function Yt(n,e){return typeof e=="function"?e(n):e}let ue,_e;function Pn(n){return!_e||(typeof _e=="string"?n.startsWith(_e):_e.test(n))}function En(n,e){let r="";if(ue=void 0,e&&e.type==="click"){if(e.ctrlKey||e.metaKey||e.altKey||e.shiftKey||e.button!==0)return n;const i=e.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!Pn(a)||i.download)return n;ue=!0,e.preventDefault(),r=i.href.replace(location.origin,"")}else e&&e.url?(ue=!e.replace,r=e.url):r=location.pathname+location.search;return ue===!0?history.pushState(null,"",r):ue===!1&&history.replaceState(null,"",r),r}const Tn=(n,e,r={})=>{n=n.split("/").filter(Boolean),e=(e||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(n.length,e.length);i++){let[,s,d,h]=(e[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=n[i],!(!s&&d==a)){if(!s&&a&&h=="*"){r.rest="/"+n.slice(i).join("/");break}if(!s||!a&&h!="?"&&h!="*")return;if(o=h=="+"||h=="*",o?a=n.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[d]=a,d in r||(r[d]=a),o)break}}return r};function De(n){const[e,r]=ct(En,n.url||location.pathname+location.search);n.scope&&(_e=n.scope);const i=ue===!0,a=je(()=>{const o=new URL(e,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:e,path:s,query:Object.fromEntries(o.searchParams),route:(d,h)=>r({url:d,replace:h}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[e]);return Jt(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),Z(De.ctx.Provider,{value:a},n.children)}const xn=Promise.resolve();function Je(n){const[e,r]=ct(R=>R+1,0),{url:i,query:a,wasPush:o,path:s}=W();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:d=s,params:h={}}=dt(Ye),u=K(!1),p=K(s),l=K(1),c=K(),f=K(),y=K(),I=K(!1),S=K();S.current=!1;let k,b,m;zt(n.children).some(R=>{if(Tn(d,R.props.path,m={...R.props,path:d,query:a,params:Object.assign({},h),rest:""}))return k=It(R,m);R.props.default&&(b=It(R,m))});let L=k||b;const B=c.current&&c.current.__u&Ce&&c.current.__u&Re,V=c.current&&c.current.__h,Y=je(()=>{f.current=c.current,c.current=Z(Ye.Provider,{value:m},L);const R=f.current&&f.current.props.children;return!R||!L||L.type!==R.type||L.props.component!==R.props.component?(l.current++,!0):!1},[i,JSON.stringify(m)]);B?(c.current.__u|=Ce,c.current.__u|=Re):V&&(c.current.__h=!0);const Q=f.current;return f.current=null,this.__c=(R,T)=>{S.current=!0,f.current=Q,n.onLoadStart&&n.onLoadStart(i),u.current=!0;let U=l.current;R.then(()=>{U===l.current&&(f.current=null,c.current&&(T.__h&&(c.current.__h=T.__h),T.__u&Re&&(c.current.__u|=Re),T.__u&Ce&&(c.current.__u|=Ce)),xn.then(r))})},Jt(()=>{const R=this.__v&&this.__v.__e;if(S.current){!I.current&&!y.current&&(y.current=R);return}!I.current&&y.current&&(y.current!==R&&y.current.remove(),y.current=null),I.current=!0,p.current!==s&&(o&&scrollTo(0,0),n.onRouteChange&&n.onRouteChange(i),p.current=s),n.onLoadEnd&&u.current&&n.onLoadEnd(i),u.current=!1},[s,o,e]),Y?[Z(Me,{r:c,key:l.current}),Z(Me,{r:f,key:l.current-1})]:Z(Me,{r:c,key:l.current})}const Ce=32,Re=128,Me=({r:n})=>n.current;Je.Provider=De;De.ctx=Qt({});const Ye=Qt({}),E=n=>Z(n.component,n),W=()=>dt(De.ctx),ne=()=>dt(Ye),Rt=w.__b;w.__b=n=>{n.type&&n.type._forwarded&&n.ref&&(n.props.ref=n.ref,n.ref=null),Rt&&Rt(n)};function fe(n){let e,r;const i=()=>n().then(o=>r=o&&o.default||o),a=o=>{const[,s]=g(0),d=K(r);if(e||(e=i()),r!==void 0)return Z(r,o);throw d.current||(d.current=e.then(()=>s(1))),e};return a.preload=()=>(e||(e=i()),e),a._forwarded=!0,a}const Pt=w.__e;w.__e=(n,e,r)=>{if(n&&n.then){let i=e;for(;i=i.__;)if(i.__c&&i.__c.__c)return e.__e==null&&(e.__c.__z=[r.__e],e.__e=r.__e,e.__k=r.__k),e.__k||(e.__k=[]),i.__c.__c(n,e)}Pt&&Pt(n,e,r)};const Xe={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class x extends Error{code;problems;constructor(e,r,i=[]){super(r),this.code=e,this.problems=i}static from(e){const r=e[0],i=r?.extensions?.code??"internal",a=e.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&Xe[i]&&i!=="unauthenticated"&&(o=`${Xe[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new x(i,o,a)}fieldErrors(e=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&e.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Xt(){return new x("network",Xe.network)}function Nn(n){return n instanceof x||n instanceof Error?n.message:String(n)}function qn(n){let e=n;const r=new Set;return{get:()=>e,set(i){e=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function Ln(n){const[e,r]=g(n.get());return J(()=>(r(n.get()),n.subscribe(r)),[n]),e}const ee=qn({status:"unknown"});let Ze;function ut(n,e,r){const i=Date.now()+e*1e3;ee.set({status:"signedIn",token:n,expiresAt:i,user:r}),clearTimeout(Ze);const a=Math.max(1e4,e*1e3-6e4);Ze=setTimeout(()=>{Be()},a)}function pt(){clearTimeout(Ze),ee.set({status:"signedOut"})}let et,ye;function Un(n){et=n}function Be(){if(ye)return ye;const n=async()=>{if(!et)return!1;const i=await et();return i?(ut(i.accessToken,i.expiresIn,i.user),!0):(pt(),!1)},e=navigator.locks;return ye=(e?e.request("einvoice-session-refresh",n):n()).finally(()=>{ye=void 0}),ye}const Zt="/graphql";async function Ue(n,e,r,i){const a={"Content-Type":"application/json",Accept:"application/json"};r&&(a.Authorization=`Bearer ${r}`),i&&(a["Idempotency-Key"]=i);let o;try{o=await fetch(Zt,{method:"POST",headers:a,body:JSON.stringify({query:n,variables:e}),credentials:"same-origin"})}catch{throw Xt()}let s;try{s=await o.json()}catch{throw o.status===429?new x("rate_limited","Too many requests. Wait a moment and try again."):new x("internal",`The server answered ${o.status}.`)}return o.status===401&&!s.errors&&(s.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),s}function Et(n){return!!n?.some(e=>e.extensions?.code==="unauthenticated")}async function D(n,...[e]){return en(n,e)}async function On(n,e,r){return en(n,e,r)}async function en(n,e,r){const i=n.toString();let a=await Ue(i,e??{},ee.get().token,r);if(Et(a.errors)&&ee.get().token!==void 0)if(await Be())a=await Ue(i,e??{},ee.get().token,r);else throw new x("unauthenticated","Your session has ended. Log in again.");if(a.errors?.length)throw Et(a.errors)&&ee.get().status==="signedIn"&&pt(),x.from(a.errors);if(!a.data)throw new x("internal","The server answered no data.");return a.data}async function ht(n,e){const r=await Ue(n.toString(),e??{});if(r.errors?.length)throw x.from(r.errors);if(!r.data)throw new x("internal","The server answered no data.");return r.data}const Bn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";Un(async()=>{try{return(await Ue(Bn,{})).data?.refreshSession??null}catch{return null}});let pe;async function Kn(){if(pe)return pe;const{createClient:n}=await de(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),e=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Zt}`;return pe=n({url:e,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=ee.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Be()}}}),pe}function Fn(){pe?.dispose(),pe=void 0}function zn(n,e,r,i){let a,o=!1;return Kn().then(s=>{o||(a=s.subscribe({query:n.toString(),variables:e},{next:d=>{d.errors?.length?i(x.from(d.errors)):d.data&&r(d.data)},error:d=>{Array.isArray(d)?i(x.from(d)):i(Xt())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function H(n,e){const[r,i]=g({loading:!0}),[a,o]=g(0),s=K(0);J(()=>{const h=++s.current;i(u=>({data:u.data,loading:!0})),n().then(u=>h===s.current&&i({data:u,loading:!1}),u=>h===s.current&&i({error:u,loading:!1}))},[...e,a]);const d=An(()=>o(h=>h+1),[]);return{...r,reload:d}}class v extends String{__apiType;value;__meta__;constructor(e,r){super(e),this.value=e,this.__meta__=r}toString(){return this.value}}const Wn=new v(`
    mutation PullReceivedInvoices($projectId: ID!) {
  pullReceivedInvoices(projectId: $projectId) {
    workflowId
  }
}
    `),Mn=new v(`
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
    `),Hn=new v(`
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
    `),Vn=new v(`
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
    qrPngBase64
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
    `),Qn=new v(`
    query InvoicePdf($id: ID!) {
  invoice(id: $id) {
    id
    irn
    pdfBase64
  }
}
    `),Gn=new v(`
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
    qrPngBase64
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
    `),Jn=new v(`
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
    `),Yn=new v(`
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
    `),Xn=new v(`
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
    `),Zn=new v(`
    mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(input: $input) {
    id
    enabled
    disabledReason
  }
}
    `),er=new v(`
    mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    id
    deleted
  }
}
    `),tr=new v(`
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
    `),nr=new v(`
    mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
  testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),rr=new v(`
    mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
  redeliverEvent(eventId: $eventId, endpointId: $endpointId) {
    eventId
    deliveries {
      deliveryId
      endpointId
    }
  }
}
    `),ir=new v(`
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
    `),or=new v(`
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
    `),ar=new v(`
    mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
  clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
}
    `),sr=new v(`
    query InvoiceSheetColumns {
  invoiceSheetColumns {
    name
    level
    required
    description
  }
}
    `),cr=new v(`
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
    `),dr=new v(`
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
    `),lr=new v(`
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
    `),ur=new v(`
    mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {
  createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) {
    id
    irn
    status
    invoiceTypeCode
    billingReference
  }
}
    `),pr=new v(`
    query InvoiceUbl($id: ID!) {
  invoice(id: $id) {
    id
    irn
    ubl
  }
}
    `),hr=new v(`
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
    `),fr=new v(`
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
    `),mr=new v(`
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
    `),gr=new v(`
    mutation Logout {
  logout {
    revoked
  }
}
    `),yr=new v(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),vr=new v(`
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
    `),_r=new v(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),Ir=new v(`
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
    `),br=new v(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),$r=new v(`
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
    `),Sr=new v(`
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
    `),kr=new v(`
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
    `),wr=new v(`
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
    `),jr=new v(`
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
    `),Dr=new v(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),Ar=new v(`
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
    `),Cr=new v(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),Rr=new v(`
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
    `),Pr=new v(`
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
    `),Er=new v(`
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
    `),Tr=new v(`
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
        actorEmail
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
    `),xr=new v(`
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
    `),Nr=new v(`
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
    `),qr=new v(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),Lr=new v(`
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
    `),Ur=new v(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),Or=new v(`
    query InvoiceSample($projectId: ID!, $invoiceType: String!) {
  invoiceSample(projectId: $projectId, invoiceType: $invoiceType)
}
    `),Br=new v(`
    mutation SubmitInvoice($input: SubmitInvoiceInput!) {
  submitInvoice(input: $input) {
    id
    irn
    status
  }
}
    `),Kr={"\n  mutation PullReceivedInvoices($projectId: ID!) {\n    pullReceivedInvoices(projectId: $projectId) { workflowId }\n  }\n":Wn,"\n  mutation DecideReceivedInvoice($projectId: ID!, $id: ID!, $decision: String!, $reason: String) {\n    decideReceivedInvoice(projectId: $projectId, id: $id, decision: $decision, reason: $reason) {\n      id decision decisionReason decidedAt\n    }\n  }\n":Mn,"\n  query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {\n    project(id: $id) {\n      id name environment\n      invoiceQueue { depth oldestAgeSeconds atRisk missed nextDeadlineAt ratePerMinute nrsStatus }\n      invoices(first: $first, after: $after, filter: $filter) {\n        edges {\n          node {\n            id irn status invoiceType invoiceTypeCode issueDate customerTin paymentStatus createdAt updatedAt confirmedAt\n            deadlineAt deadlineAtRisk deadlineMissed\n          }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Hn,"\n  query Invoice($id: ID!) {\n    invoice(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":Vn,"\n  query InvoicePdf($id: ID!) {\n    invoice(id: $id) { id irn pdfBase64 }\n  }\n":Qn,"\n  subscription InvoiceUpdated($id: ID!) {\n    invoiceUpdated(id: $id) {\n      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference\n      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }\n      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed\n      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }\n    }\n  }\n":Gn,"\n  query WebhookEndpoints($id: ID!) {\n    project(id: $id) {\n      id name environment\n      webhookEndpoints(first: 50) {\n        edges {\n          node { id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince createdAt updatedAt }\n        }\n      }\n    }\n  }\n":Jn,"\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    project(id: $id) {\n      id name\n      webhookEndpoints(first: 50) {\n        edges {\n          node {\n            id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince\n            deliveries(first: $first) {\n              edges { node { id deliveryId eventId eventType attempt status httpStatus latencyMs responseBody error createdAt } }\n              pageInfo { hasNextPage endCursor }\n            }\n          }\n        }\n      }\n    }\n  }\n":Yn,"\n  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {\n    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }\n  }\n":Xn,"\n  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {\n    updateWebhookEndpoint(input: $input) { id enabled disabledReason }\n  }\n":Zn,"\n  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }\n  }\n":er,"\n  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {\n    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {\n      secret endpoint { id url secretLast4 previousSecretExpiresAt }\n    }\n  }\n":tr,"\n  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {\n    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":nr,"\n  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {\n    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }\n  }\n":rr,"\n  query SandboxFaults($id: ID!) {\n    project(id: $id) { id name environment }\n    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":ir,"\n  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {\n    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }\n  }\n":or,"\n  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {\n    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)\n  }\n":ar,"\n  query InvoiceSheetColumns {\n    invoiceSheetColumns { name level required description }\n  }\n":sr,"\n  query PreviewInvoiceSheet($projectId: ID!, $fileName: String!, $content: String!) {\n    previewInvoiceSheet(projectId: $projectId, fileName: $fileName, contentBase64: $content) {\n      rowCount counts\n      errors { row column message }\n      invoices { invoiceReference invoiceType rows valid payload }\n    }\n  }\n":cr,"\n  mutation SubmitSheetBatch($projectId: ID!, $invoices: [SubmitInvoiceInput!]!) {\n    submitInvoiceBatch(projectId: $projectId, invoices: $invoices) {\n      id itemCount counts { status count }\n      items { index status invoiceId irn problems { loc msg } error { code detail } }\n    }\n  }\n":dr,"\n  query SheetBatch($id: ID!) {\n    invoiceBatch(id: $id) {\n      id itemCount counts { status count }\n      items { index status invoiceId irn problems { loc msg } error { code detail } }\n    }\n  }\n":lr,"\n  mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {\n    createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) { id irn status invoiceTypeCode billingReference }\n  }\n":ur,"\n  query InvoiceUbl($id: ID!) {\n    invoice(id: $id) { id irn ubl }\n  }\n":pr,"\n  query ReceivedInvoices($id: ID!, $first: Int, $after: String, $filter: ReceivedInvoiceFilter) {\n    project(id: $id) {\n      id name environment\n      receivedInvoices(first: $first, after: $after, filter: $filter) {\n        edges {\n          node {\n            id irn supplierTin supplierName invoiceTypeCode issueDate currency payableAmount sealed confirmed confirmedAt\n            decision decisionReason decidedAt receivedAt\n          }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":hr,"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":fr,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":mr,"\n  mutation Logout {\n    logout { revoked }\n  }\n":gr,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":yr,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":vr,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":_r,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":Ir,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":br,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":$r,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":Sr,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":kr,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":wr,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":jr,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":Dr,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Ar,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":Cr,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Rr,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Pr,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":Er,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } actorEmail target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":Tr,"\n  query AuditChain($org: ID!) {\n    organization(id: $org) {\n      id\n      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }\n    }\n  }\n":xr,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    project(id: $projectId) { id validationProfile }\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":Nr,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":qr,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":Lr,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":Ur,"\n  query InvoiceSample($projectId: ID!, $invoiceType: String!) {\n    invoiceSample(projectId: $projectId, invoiceType: $invoiceType)\n  }\n":Or,"\n  mutation SubmitInvoice($input: SubmitInvoiceInput!) {\n    submitInvoice(input: $input) { id irn status }\n  }\n":Br};function j(n){return Kr[n]??{}}const Fr=j(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),zr=j(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),Wr=j(`
  mutation Logout {
    logout { revoked }
  }
`),Mr=j(`
  mutation EndSession {
    endSession { ended }
  }
`),ft=j(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),Hr=j(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),Vr=j(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),Qr=j(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),tn=j(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),Gr=j(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),Jr=j(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),Yr=j(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),Xr=j(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),Zr=j(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),ei=j(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),ti=j(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),ni=j(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),ri=j(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),ii=j(`
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
`),oi=j(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } actorEmail target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),ai=j(`
  query AuditChain($org: ID!) {
    organization(id: $org) {
      id
      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }
    }
  }
`),si=j(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),ci=j(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),di=j(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),li=j(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`),ui=j(`
  query InvoiceSample($projectId: ID!, $invoiceType: String!) {
    invoiceSample(projectId: $projectId, invoiceType: $invoiceType)
  }
`),pi=j(`
  mutation SubmitInvoice($input: SubmitInvoiceInput!) {
    submitInvoice(input: $input) { id irn status }
  }
`);function M(n){const e=K(null);return J(()=>{document.title=`${n.title} · einvoice`,e.current?.focus({preventScroll:!1})},[n.title]),t("section",{class:"page","aria-labelledby":"page-title",children:[t("div",{class:"page-head",children:[t("h1",{id:"page-title",tabIndex:-1,ref:e,children:n.title}),n.actions&&t("div",{class:"page-actions",children:n.actions})]}),n.lead&&t("p",{class:"lead",children:n.lead}),n.children]})}function F(n){return t("p",{class:"loading",role:"status","aria-live":"polite",children:[t("span",{class:"spinner","aria-hidden":"true"})," ",n.label??"Loading…"]})}function le(n){return t("div",{class:"empty",children:n.children})}function z(n){return n.error?t("div",{class:"alert error",role:"alert",children:[t("p",{children:Nn(n.error)}),n.retry&&t("button",{type:"button",class:"secondary",onClick:n.retry,children:"Try again"})]}):null}function tt(n){return t("div",{class:`alert ${n.kind??"ok"}`,role:"status",children:n.children})}let hi=0;function nn(n){const[e]=g(()=>`${n}-${++hi}`);return e}function A({label:n,name:e,error:r,hint:i,...a}){const o=nn(e),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("input",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&t("p",{class:"hint",id:`${o}-hint`,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function ce({label:n,name:e,error:r,children:i,...a}){const o=nn(e);return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("select",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function re(n){if(!n.error)return null;const e=n.error;if(e instanceof x&&e.code==="invalid"){const r=e.fieldErrors(),i=Object.entries(r).filter(([a])=>!n.fields?.includes(a));return t("div",{class:"alert error",role:"alert",children:[t("p",{children:e.message}),i.length>0&&t("ul",{children:i.map(([a,o])=>t("li",{children:[t("code",{children:a||"request"}),": ",o]},a))})]})}return t(z,{error:e})}function ie(n){return n instanceof x?n.fieldErrors():{}}function Tt(n){const e=K(null);return J(()=>{const r=e.current;r&&(n.open&&!r.open&&r.showModal(),!n.open&&r.open&&r.close())},[n.open]),t("dialog",{ref:e,"aria-labelledby":"confirm-title",onClose:n.onClose,onCancel:n.onClose,children:[t("h2",{id:"confirm-title",children:n.title}),n.children,t("div",{class:"dialog-actions",children:[t("button",{type:"button",class:"secondary",onClick:n.onClose,children:"Cancel"}),t("button",{type:"button",class:n.danger?"danger":"",disabled:n.busy,onClick:n.onConfirm,children:n.confirm})]})]})}function nt(n){const[e,r]=g("");return t("span",{class:"copy",children:[t("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(n.text),r("ok")}catch{r("fail")}},children:n.label??"Copy"}),t("span",{role:"status","aria-live":"polite",class:"copy-status",children:e==="ok"?"Copied":e==="fail"?"Copy failed: select the text and copy it":""})]})}function te(n){return n?new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function N(n){return t("span",{class:`badge ${n.tone??"info"}`,children:n.children})}const fi=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"},{path:"/invoices",label:"Invoices"},{path:"/inbox",label:"Inbox"},{path:"/webhooks",label:"Webhooks"},{path:"/sandbox",label:"Sandbox faults"}],mi=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],he="einvoice.org";function gi(n){const e=n.next;return e&&e.startsWith("/")&&!e.startsWith("//")?e:"/"}function yi(){const n=W(),[e,r]=g(),[i,a]=g(!1),o=async d=>{d.preventDefault();const h=new FormData(d.currentTarget);a(!0),r(void 0);try{const u=await ht(zr,{input:{email:String(h.get("email")),password:String(h.get("password"))}});ut(u.login.accessToken,u.login.expiresIn,u.login.user),n.route(gi(n.query),!0)}catch(u){r(u)}finally{a(!1)}},s=ie(e);return t("div",{class:"auth",children:t(M,{title:"Log in to einvoice",children:[t("form",{onSubmit:o,noValidate:!0,children:[t(A,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),t(A,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),t(re,{error:e,fields:["email","password"]}),t("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),t("p",{children:["New here? ",t("a",{href:"/signup",children:"Create an account"})]})]})})}function vi(){const n=W(),[e,r]=g(),[i,a]=g(!1),[o,s]=g(""),[d,h]=g(!1),u=async l=>{l.preventDefault();const c=new FormData(l.currentTarget);a(!0),r(void 0);try{const f=await ht(Fr,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});ut(f.signup.accessToken,f.signup.expiresIn,f.signup.user),f.signup.organization?(localStorage.setItem(he,f.signup.organization.id),n.route(`/orgs/${f.signup.organization.id}/projects`,!0)):n.route("/",!0)}catch(f){r(f)}finally{a(!1)}},p=ie(e);return t("div",{class:"auth",children:t(M,{title:"Create your einvoice account",children:[t("form",{onSubmit:u,noValidate:!0,children:[t(A,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:p.email}),t(A,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:p.password}),t(A,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:p.organizationName,onInput:l=>{d||s(rn(l.currentTarget.value))}}),t(A,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:p.organizationSlug,onInput:l=>{h(!0),s(l.currentTarget.value)}}),t(re,{error:e,fields:["email","password","organizationName","organizationSlug"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),t("p",{children:["Have an account? ",t("a",{href:"/login",children:"Log in"})]})]})})}function rn(n){return n.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function _i(){const n=W(),e=H(()=>D(ft),[]),[r,i]=g(),[a,o]=g(!1),[s,d]=g(""),h=async l=>{l.preventDefault();const c=new FormData(l.currentTarget);o(!0),i(void 0);try{const f=await D(Hr,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(he,f.createOrganization.id),n.route(`/orgs/${f.createOrganization.id}/projects`)}catch(f){i(f)}finally{o(!1)}},u=ie(r),p=e.data?.me.organizations.edges??[];return t(M,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[e.loading&&!e.data&&t(F,{}),t(z,{error:e.error,retry:e.reload}),e.data&&p.length===0&&t(le,{children:"You belong to no organization yet. Create one below."}),p.length>0&&t("ul",{class:"cards",children:p.map(({node:l})=>t("li",{class:"card",children:[t("a",{href:`/orgs/${l.id}/projects`,onClick:()=>localStorage.setItem(he,l.id),children:l.name}),t("span",{class:"muted",children:[" ",l.slug]})," ",t(N,{children:l.role.toLowerCase()})]},l.id))}),t("form",{onSubmit:h,class:"panel",noValidate:!0,children:[t("h2",{children:"New organization"}),t(A,{label:"Name",name:"name",required:!0,error:u.name,onInput:l=>d(rn(l.currentTarget.value))}),t(A,{label:"Slug",name:"slug",required:!0,value:s,onInput:l=>d(l.currentTarget.value),error:u.slug}),t(re,{error:r,fields:["name","slug"]}),t("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function on(n){return H(()=>D(tn,{id:n}),[n]).data?.project?.name}function me(n){const e=W(),r=`/projects/${n.projectId}`;return t(q,{children:[t("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[n.org&&t("a",{href:`/orgs/${n.org.id}/projects`,children:n.org.name}),n.org&&t("span",{"aria-hidden":"true",children:" / "}),t("span",{children:n.project??"Project"})]}),t("nav",{"aria-label":"Project",class:"tabs",children:fi.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function an(n){const e=W(),r=`/orgs/${n.orgId}`;return t("nav",{"aria-label":"Organization",class:"tabs",children:[mi.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path)),n.children]})}function sn(n){const e=W(),i=H(()=>D(ft),[]).data?.me.organizations.edges??[];return i.length<2?null:t("div",{class:"switcher",children:[t("label",{for:"org-switch",children:"Switch organization"}),t("select",{id:"org-switch",value:n.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(he,o),e.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>t("option",{value:a.id,children:a.name},a.id))})]})}function Ii(){const{params:n}=ne(),e=n.orgId,r=W(),i=H(()=>D(Vr,{id:e}),[e]),[a,o]=g(),[s,d]=g(!1);J(()=>localStorage.setItem(he,e),[e]);const h=i.data?.organization,u=async f=>{f.preventDefault();const y=new FormData(f.currentTarget);d(!0),o(void 0);try{const I=await D(Qr,{input:{organizationId:e,name:String(y.get("name")),environment:y.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${I.createProject.id}`)}catch(I){o(I)}finally{d(!1)}},p=ie(a),l=h?.projects.edges??[],c=h&&h.role!=="MEMBER";return t(M,{title:h?`${h.name}: projects`:"Projects",actions:t(sn,{orgId:e}),children:[t(an,{orgId:e}),i.loading&&!i.data&&t(F,{label:"Loading projects…"}),t(z,{error:i.error,retry:i.reload}),h&&l.length===0&&t(le,{children:t("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),l.length>0&&t("ul",{class:"cards","aria-label":"Projects",children:l.map(({node:f})=>t("li",{class:"card",children:[t("a",{href:`/projects/${f.id}`,children:f.name})," ",t(N,{tone:f.environment==="PRODUCTION"?"warn":"info",children:f.environment.toLowerCase()})," ",!f.authority.configured&&t(N,{tone:"bad",children:"not configured"}),t("div",{class:"muted small",children:["Created ",te(f.createdAt)]})]},f.id))}),c&&t("form",{onSubmit:u,class:"panel",noValidate:!0,children:[t("h2",{children:"New project"}),t(A,{label:"Project name",name:"name",required:!0,error:p.name}),t(ce,{label:"Environment",name:"environment",error:p.environment,children:[t("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),t("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),t(re,{error:a,fields:["name","environment"]}),t("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function bi(){const{params:n}=ne(),e=n.projectId,r=H(()=>D(tn,{id:e}),[e]),i=r.data?.project;return t(M,{title:i?i.name:"Project",children:[t(me,{projectId:e,org:i?.organization,project:i?.name}),r.loading&&!i&&t(F,{}),t(z,{error:r.error,retry:r.reload}),i&&t(q,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Environment"}),t("dd",{children:t(N,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),t("dt",{children:"Created"}),t("dd",{children:te(i.createdAt)}),t("dt",{children:"Tax authority"}),t("dd",{children:i.authority.taxAuthorityCode}),t("dt",{children:"Business id"}),t("dd",{children:t("code",{children:i.authority.businessId??"—"})}),t("dt",{children:"Service id"}),t("dd",{children:t("code",{children:i.authority.serviceId??"—"})}),t("dt",{children:"Status"}),t("dd",{children:i.authority.configured?t(N,{tone:"ok",children:"configured"}):t(N,{tone:"bad",children:"not configured"})}),t("dt",{children:"API credentials"}),t("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),t("dt",{children:"QR encryption"}),t("dd",{children:i.authority.qrEncryption}),t("dt",{children:"Public key fingerprint"}),t("dd",{children:t("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&t(Si,{projectId:e,onSaved:r.reload}),i.environment==="SANDBOX"&&t("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const $i=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function Si(n){const[e,r]=g(),[i,a]=g(!1),[o,s]=g(!1),d=async u=>{u.preventDefault();const p=u.currentTarget,l=new FormData(p),c=f=>{const y=String(l.get(f)??"").trim();return y===""?null:y};a(!0),r(void 0),s(!1);try{await D(Gr,{projectId:n.projectId,input:{taxAuthorityCode:String(l.get("taxAuthorityCode")??"NRS"),businessId:String(l.get("businessId")??""),serviceId:String(l.get("serviceId")??""),publicKey:String(l.get("publicKey")??""),certificate:String(l.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const f of["publicKey","certificate","apiKey","apiSecret"])p.elements.namedItem(f).value="";s(!0),n.onSaved()}catch(f){r(f)}finally{a(!1)}},h=ie(e);return t("form",{class:"panel",onSubmit:d,noValidate:!0,children:[t("h2",{children:"Tax authority settings"}),t("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),t(A,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:h.taxAuthorityCode}),t(A,{label:"Business id",name:"businessId",required:!0,error:h.businessId,hint:"The UUID NRS gave your business."}),t(A,{label:"Service id",name:"serviceId",required:!0,error:h.serviceId,hint:"8 letters or digits."}),t(A,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:h.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),t(A,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:h.certificate}),t(A,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:h.apiKey,hint:"Given together with the API secret."}),t(A,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:h.apiSecret}),t(A,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:h.baseUrl}),t(A,{label:"QR encryption (optional)",name:"qrEncryption",error:h.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),t(re,{error:e,fields:$i}),o&&t(tt,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),t("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function ki(){const{params:n}=ne(),e=n.projectId,r=H(()=>D(Jr,{id:e}),[e]),[i,a]=g(),[o,s]=g(),[d,h]=g(),[u,p]=g("3600"),[l,c]=g(!1),[f,y]=g(),I=r.data?.project,S=I?.apiKeys.edges??[],k=async()=>{if(o){c(!0),y(void 0);try{const m=await D(Xr,{projectId:e,keyId:o.id,graceSeconds:Number(u)});a({keyName:m.rotateApiKey.key.keyName,clientId:m.rotateApiKey.key.clientId,secret:m.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(m){y(m)}finally{c(!1)}}},b=async()=>{if(d){c(!0),y(void 0);try{await D(Zr,{projectId:e,keyId:d.id}),h(void 0),r.reload()}catch(m){y(m)}finally{c(!1)}}};return t(M,{title:I?`${I.name}: API keys`:"API keys",children:[t(me,{projectId:e,project:I?.name}),r.loading&&!I&&t(F,{label:"Loading keys…"}),t(z,{error:r.error,retry:r.reload}),i&&t(wi,{r:i,onDone:()=>a(void 0)}),t(z,{error:f}),I&&S.length===0&&t(le,{children:"No API keys yet. Create one to call the API from your systems."}),S.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:t("table",{children:[t("caption",{class:"sr-only",children:"API keys"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Name"}),t("th",{scope:"col",children:"Client id"}),t("th",{scope:"col",children:"Secret"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Last used"}),t("th",{scope:"col",children:t("span",{class:"sr-only",children:"Actions"})})]})}),t("tbody",{children:S.map(({node:m})=>t("tr",{children:[t("th",{scope:"row",children:[m.keyName,t("div",{class:"muted small",children:m.scopes.length===r.data.apiKeyScopes.length?"all scopes":m.scopes.join(", ")})]}),t("td",{children:t("code",{children:m.clientId})}),t("td",{children:t("code",{children:["…",m.secretLast4]})}),t("td",{children:[t(N,{tone:m.status==="ACTIVE"?"ok":"bad",children:m.status.toLowerCase()}),m.rotatedAt&&t("div",{class:"muted small",children:["rotated ",te(m.rotatedAt)]})]}),t("td",{children:te(m.lastUsedAt)}),t("td",{class:"row-actions",children:m.status==="ACTIVE"&&t(q,{children:[t("button",{type:"button",class:"secondary",onClick:()=>s({id:m.id,name:m.keyName}),"aria-label":`Rotate ${m.keyName}`,children:"Rotate"}),t("button",{type:"button",class:"danger",onClick:()=>h({id:m.id,name:m.keyName}),"aria-label":`Revoke ${m.keyName}`,children:"Revoke"})]})})]},m.id))})]})}),r.data&&t(ji,{projectId:e,scopes:r.data.apiKeyScopes,onCreated:m=>{a(m),r.reload()}}),t(Tt,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:l,onConfirm:k,onClose:()=>s(void 0),children:[t("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),t(ce,{label:"Grace period for the old secret",name:"grace",value:u,onChange:m=>p(m.currentTarget.value),children:[t("option",{value:"0",children:"None: the old secret stops now"}),t("option",{value:"3600",children:"1 hour"}),t("option",{value:"86400",children:"1 day"}),t("option",{value:"604800",children:"7 days"})]})]}),t(Tt,{open:!!d,title:`Revoke ${d?.name??""}?`,confirm:"Revoke key",danger:!0,busy:l,onConfirm:b,onClose:()=>h(void 0),children:t("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function wi(n){return t("section",{class:"panel secret","aria-labelledby":"secret-title",children:[t("h2",{id:"secret-title",tabIndex:-1,ref:e=>e?.focus(),children:[n.r.rotated?"New secret":"Your new key",": ",n.r.keyName]}),t("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),t("dl",{class:"facts",children:[t("dt",{children:"Client id (X-Client-Id)"}),t("dd",{children:[t("code",{"data-testid":"client-id",children:n.r.clientId})," ",t(nt,{text:n.r.clientId,label:"Copy client id"})]}),t("dt",{children:"Client secret (X-Client-Secret)"}),t("dd",{children:[t("code",{"data-testid":"client-secret",class:"wrap",children:n.r.secret})," ",t(nt,{text:n.r.secret,label:"Copy secret"})]})]}),t("button",{type:"button",onClick:n.onDone,children:"I have stored the secret"})]})}function ji(n){const[e,r]=g(),[i,a]=g(!1),o=async d=>{d.preventDefault();const h=d.currentTarget,u=new FormData(h),p=u.getAll("scopes").map(String);a(!0),r(void 0);try{const l=await D(Yr,{input:{projectId:n.projectId,keyName:String(u.get("keyName")),scopes:p.length?p:null}});h.reset(),n.onCreated({keyName:l.createApiKey.key.keyName,clientId:l.createApiKey.key.clientId,secret:l.createApiKey.clientSecret,rotated:!1})}catch(l){r(l)}finally{a(!1)}},s=ie(e);return t("form",{class:"panel",onSubmit:o,noValidate:!0,children:[t("h2",{children:"New API key"}),t(A,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),t("fieldset",{children:[t("legend",{children:"Scopes (none ticked: every scope)"}),t("div",{class:"checks",children:n.scopes.map(d=>t("label",{class:"check",children:[t("input",{type:"checkbox",name:"scopes",value:d})," ",t("code",{children:d})]},d))}),s.scopes&&t("p",{class:"field-error",children:s.scopes})]}),t(re,{error:e,fields:["keyName","scopes"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const rt=n=>n==="PASSED"?"ok":n==="FAILED"||n==="CANCELLED"?"bad":n==="RETRYING"?"warn":"info";function Di(){const{params:n}=ne(),e=n.projectId,[r,i]=g([]),a=r[r.length-1],o=H(()=>D(ei,{id:e,after:a??null}),[e,a]),s=o.data?.project,d=s?.certificationRuns.edges??[];return t(M,{title:s?`${s.name}: certification`:"Certification",children:[t(me,{projectId:e,project:s?.name}),t("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&t(Ci,{projectId:e,configured:s.authority.configured}),t("h2",{children:"Past runs"}),o.loading&&!s&&t(F,{label:"Loading runs…"}),t(z,{error:o.error,retry:o.reload}),s&&d.length===0&&t(le,{children:"No runs yet."}),d.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:t("table",{children:[t("caption",{class:"sr-only",children:"Certification runs"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Run"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Type"}),t("th",{scope:"col",children:"Issue date"}),t("th",{scope:"col",children:"Started"})]})}),t("tbody",{children:d.map(({node:h})=>t("tr",{children:[t("th",{scope:"row",children:[t("a",{href:`/projects/${e}/certification/${h.id}`,children:h.id.slice(0,8)}),h.failureReason&&t("div",{class:"muted small",children:h.failureReason})]}),t("td",{children:t(N,{tone:rt(h.status),children:h.status.toLowerCase()})}),t("td",{children:h.invoiceType}),t("td",{children:h.issueDate}),t("td",{children:te(h.createdAt)})]},h.id))})]})}),t("div",{class:"pager",children:[r.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function Ai(){return new Date().toISOString().slice(0,10)}function Ci(n){const e=W(),[r,i]=g(),[a,o]=g(!1),[s,d]=g(),h=async p=>{p.preventDefault();const l=new FormData(p.currentTarget),c=String(l.get("invoicePayload")??"").trim();let f=null;if(d(void 0),c)try{f=JSON.parse(c)}catch(y){d(`Not valid JSON: ${y.message}`);return}o(!0),i(void 0);try{const y=await D(ti,{input:{projectId:n.projectId,invoiceType:String(l.get("invoiceType")),issueDate:String(l.get("issueDate")),invoicePayload:f}});e.route(`/projects/${n.projectId}/certification/${y.startCertificationRun.id}`)}catch(y){i(y)}finally{o(!1)}},u=ie(r);return t("form",{class:"panel",onSubmit:h,noValidate:!0,children:[t("h2",{children:"Start a run"}),!n.configured&&t("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),t("div",{class:"row",children:[t(ce,{label:"Invoice type",name:"invoiceType",error:u.invoiceType,children:[t("option",{value:"B2B",children:"B2B: to a business"}),t("option",{value:"B2C",children:"B2C: to a consumer"}),t("option",{value:"B2G",children:"B2G: to a government body"})]}),t(A,{label:"Issue date",name:"issueDate",type:"date",value:Ai(),required:!0,error:u.issueDate})]}),t("div",{class:`field${s||u.invoicePayload?" invalid":""}`,children:[t("label",{for:"run-payload",children:"Invoice JSON (optional)"}),t("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),t("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||u.invoicePayload)&&t("p",{class:"field-error",children:s??u.invoicePayload})]}),t(re,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),t("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function Ri(){const{params:n}=ne(),{projectId:e,runId:r}=n,i=on(e),[a,o]=g(),[s,d]=g(),[h,u]=g(!1);return J(()=>{let p;return o(void 0),d(void 0),D(ni,{id:r}).then(l=>{o(l.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(l.certificationRun.status)&&(u(!0),p=zn(ri,{id:r},f=>o(f.certificationRunUpdated),f=>{u(!1),f&&d(f)}))},d),()=>p?.()},[r]),t(M,{title:`Certification run ${r.slice(0,8)}`,children:[t(me,{projectId:e,project:i}),t("p",{children:t("a",{href:`/projects/${e}/certification`,children:"All runs"})}),!a&&!s&&t(F,{label:"Loading the run…"}),t(z,{error:s}),a&&t(q,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Status"}),t("dd",{children:[t("span",{"data-testid":"run-status",children:t(N,{tone:rt(a.status),children:a.status.toLowerCase()})})," ",h&&t("span",{class:"muted small",role:"status",children:"live"})]}),t("dt",{children:"Invoice type"}),t("dd",{children:a.invoiceType}),t("dt",{children:"Issue date"}),t("dd",{children:a.issueDate}),t("dt",{children:"IRN"}),t("dd",{children:t("code",{children:a.irn??"—"})}),a.failureReason&&t(q,{children:[t("dt",{children:"Why it failed"}),t("dd",{children:a.failureReason})]}),t("dt",{children:"Workflow"}),t("dd",{children:a.temporal.uiUrl?t("a",{href:a.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[a.temporal.workflowId," in the Temporal UI"]}):t("code",{children:a.temporal.workflowId})})]}),t("h2",{children:"Steps"}),a.steps.length===0&&t(le,{children:"No step has started yet."}),t("ol",{class:"steps","aria-live":"polite",children:a.steps.map(p=>t("li",{class:"step",children:t("details",{children:[t("summary",{children:[t(N,{tone:rt(p.status),children:p.status.toLowerCase()})," ",t("strong",{children:p.name}),p.durationMs!=null&&t("span",{class:"muted small",children:[" ",p.durationMs," ms"]})]}),t("dl",{class:"facts small",children:[t("dt",{children:"Attempts"}),t("dd",{children:p.attempts}),t("dt",{children:"Started"}),t("dd",{children:te(p.startedAt)}),t("dt",{children:"Finished"}),t("dd",{children:te(p.finishedAt)}),t("dt",{children:"HTTP status"}),t("dd",{children:p.httpStatus??"—"}),t("dt",{children:"NRS error id"}),t("dd",{children:p.nrsErrorId??"—"}),t("dt",{children:"Message"}),t("dd",{children:p.message||"—"})]})]})},p.name))})]})]})}const Pe=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Oe(n){return n.toISOString().slice(0,10)}function Pi(){const{params:n}=ne(),e=n.projectId,[r,i]=g(()=>Oe(new Date(Date.now()-29*864e5))),[a,o]=g(()=>Oe(new Date)),[s,d]=g(""),h=H(()=>D(ii,{id:e,from:r||null,to:a||null,keyId:s||null}),[e,r,a,s]),u=h.data?.project,p=u?.usage;return t(M,{title:u?`${u.name}: usage`:"Usage",children:[t(me,{projectId:e,project:u?.name}),t("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Usage filters",children:[t(ce,{label:"API key",name:"keyId",value:s,onChange:l=>d(l.currentTarget.value),children:[t("option",{value:"",children:"All keys"}),u?.apiKeys.edges.map(({node:l})=>t("option",{value:l.id,children:[l.keyName,l.status==="REVOKED"?" (revoked)":""]},l.id))]}),t(A,{label:"From",name:"from",type:"date",value:r,onChange:l=>i(l.currentTarget.value)}),t(A,{label:"To",name:"to",type:"date",value:a,onChange:l=>o(l.currentTarget.value)}),t("button",{type:"button",class:"secondary",onClick:h.reload,children:"Refresh"})]}),t("p",{class:"lead","data-testid":"usage-scope",children:"Usage counts the calls made to the API with this project's API keys: your integration's traffic. What you do in this portal (the workbench, invoices submitted or downloaded here) runs as your signed-in account, not as a key, so it is not counted here; it is limited at the same rate as a key."}),h.loading&&!p&&t(F,{label:"Loading usage…"}),t(z,{error:h.error,retry:h.reload}),p&&t(q,{children:[t("p",{children:[t("strong",{"data-testid":"usage-total",children:p.total})," calls from ",p.from," to ",p.to,h.loading&&t("span",{class:"muted small",children:" (updating…)"})]}),p.total===0?t(le,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):t(Ei,{from:p.from,to:p.to,daily:p.daily,operations:p.byOperation.map(l=>l.operation)}),p.byOperation.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:t("table",{children:[t("caption",{children:"Calls per operation"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Operation"}),t("th",{scope:"col",class:"num",children:"Calls"})]})}),t("tbody",{children:p.byOperation.map(l=>t("tr",{children:[t("th",{scope:"row",children:t("code",{children:l.operation})}),t("td",{class:"num",children:l.count})]},l.operation))})]})})]})]})}function Ei(n){const e=[];for(let p=new Date(`${n.from}T00:00:00Z`);Oe(p)<=n.to&&e.length<400;p=new Date(p.getTime()+864e5))e.push(Oe(p));const r=[...n.operations].sort(),i=new Map;for(const p of n.daily)i.has(p.date)||i.set(p.date,new Map),i.get(p.date).set(p.operation,p.count);const a=e.map(p=>[...i.get(p)?.values()??[]].reduce((l,c)=>l+c,0)),o=Math.max(1,...a),s=e.length*10,d=200,h=e.map((p,l)=>a[l]?`${p}: ${a[l]}`:"").filter(Boolean).join("; "),u=e.length>2?[e[0],e[Math.floor((e.length-1)/2)],e[e.length-1]]:e;return t("figure",{class:"chart",children:[t("div",{class:"plot",children:[t("div",{class:"yaxis","aria-hidden":"true",children:[t("span",{class:"tick","data-testid":"usage-max",children:o}),t("span",{class:"tick",children:"0"})]}),t("svg",{class:"bars",viewBox:`0 0 ${s} ${d}`,preserveAspectRatio:"none",role:"img","aria-label":`Calls per day. ${h}`,"data-testid":"usage-chart",children:e.map((p,l)=>{let c=d;return t("g",{children:r.map((f,y)=>{const I=i.get(p)?.get(f)??0;if(!I)return null;const S=I/o*(d-4);return c-=S,t("rect",{x:l*10+1,y:c,width:8,height:S,fill:Pe[y%Pe.length],children:t("title",{children:[p," ",f,": ",I]})},f)})},p)})}),t("div",{class:"xaxis","aria-hidden":"true",children:u.map(p=>t("span",{class:"tick",children:p.slice(5)},p))})]}),t("figcaption",{children:t("ul",{class:"legend","aria-label":"Operations",children:r.map((p,l)=>t("li",{children:[t("svg",{class:"swatch",width:"12",height:"12",viewBox:"0 0 12 12","aria-hidden":"true",children:t("rect",{width:"12",height:"12",fill:Pe[l%Pe.length]})}),t("span",{children:p})]},p))})})]})}function Ti(){const{params:n}=ne(),e=n.orgId,[r,i]=g(""),[a,o]=g([]),s=a[a.length-1],d=H(()=>D(oi,{org:e,action:r||null,after:s??null}),[e,r,s]),h=H(()=>D(ai,{org:e}),[e]),u=h.data?.organization.auditChain.brokenEntryId??null,p=d.data?.auditLogs.edges??[];return t(M,{title:"Audit log",actions:t(sn,{orgId:e}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[t(an,{orgId:e}),t(xi,{chain:h.data?.organization.auditChain,loading:h.loading,error:h.error,reload:h.reload,brokenOnPage:u!==null&&p.some(l=>l.node.id===u)}),t("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Audit filters",children:t(ce,{label:"Action",name:"action",value:r,onChange:l=>{i(l.currentTarget.value),o([])},children:[t("option",{value:"",children:"All actions"}),d.data?.auditActions.map(l=>t("option",{value:l,children:l},l))]})}),d.loading&&!d.data&&t(F,{label:"Loading the audit log…"}),t(z,{error:d.error,retry:d.reload}),d.data&&p.length===0&&t(le,{children:["No entries",r?` for ${r}`:"","."]}),p.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:t("table",{"data-testid":"audit-table",children:[t("caption",{class:"sr-only",children:"Audit entries"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"When"}),t("th",{scope:"col",children:"Action"}),t("th",{scope:"col",children:"Actor"}),t("th",{scope:"col",children:"Target"}),t("th",{scope:"col",children:"From"}),t("th",{scope:"col",children:"Hash"})]})}),t("tbody",{children:p.map(({node:l})=>t("tr",{class:l.id===u?"broken":void 0,"data-entry":l.id,children:[t("td",{children:te(l.createdAt)}),t("th",{scope:"row",children:[t("code",{children:l.action}),l.id===u&&t("div",{children:t(N,{tone:"bad",children:"chain breaks here"})})]}),t("td",{"data-testid":"audit-actor",children:l.actorEmail?t("span",{class:"wrap",title:`${l.actor.type} ${l.actor.id}`,children:l.actorEmail}):t(q,{children:[l.actor.type," ",t("code",{class:"small",title:l.actor.id,children:l.actor.id.slice(0,8)})]})}),t("td",{children:[l.target.type," ",t("code",{class:"small",children:l.target.id.slice(0,8)})]}),t("td",{class:"small",children:[l.ip,t("div",{class:"muted",children:l.requestId.slice(0,8)})]}),t("td",{children:t("code",{class:"small",title:`previous ${l.prevHash}`,children:l.hash.slice(0,12)})})]},l.id))})]})}),t("div",{class:"pager",children:[a.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),d.data?.auditLogs.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>o([...a,d.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function xi(n){const e=n.chain,r=n.loading;return t("section",{class:"panel chain","aria-labelledby":"chain-title","aria-busy":r?"true":"false","data-testid":"audit-chain",children:[t("div",{class:"chain-head",children:[t("h2",{id:"chain-title",children:"Hash chain"}),(e||n.error)&&t("button",{type:"button",class:"secondary",onClick:n.reload,disabled:r,children:r?"Verifying…":"Verify again"})]}),r&&!e&&t(F,{label:"Verifying the hash chain…"}),t(z,{error:n.error}),e&&!n.error&&t(q,{children:[e.valid?t("div",{class:"verdict ok",role:"status","data-testid":"chain-verdict","data-state":"verified",children:t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✓ "}),"Verified."]})," ",e.entries===0?"The chain is empty: nothing has been recorded yet.":`All ${e.entries} ${e.entries===1?"entry carries its":"entries carry their"} keyed hash and link to the one before, and the head names the newest.`]})}):t("div",{class:"verdict bad",role:"alert","data-testid":"chain-verdict","data-state":"broken",children:[t("p",{children:[t("strong",{children:[t("span",{"aria-hidden":"true",children:"✗ "}),"Broken:"]})," ",t("span",{"data-testid":"chain-problem",children:e.problem})]}),e.brokenEntryId&&t("p",{children:["First entry at fault: ",t("code",{class:"wrap","data-testid":"chain-broken-entry",children:e.brokenEntryId})," ",n.brokenOnPage?"(marked in the entries below).":"(not on this page: clear the filter or page through older entries)."]}),t("p",{class:"small",children:"The log can no longer prove its history. Keep the entries as they are and investigate."})]}),t("dl",{class:"facts",children:[t("dt",{children:"Entries"}),t("dd",{"data-testid":"chain-entries",children:e.entries}),t("dt",{children:"Head"}),t("dd",{children:e.headSeq===0?"none yet":t(q,{children:["entry ",t("span",{"data-testid":"chain-head-seq",children:e.headSeq}),","," ",t("code",{class:"wrap","data-testid":"chain-head-hash",children:e.headHash})," ",t(nt,{text:e.headHash,label:"Copy head hash"})]})}),t("dt",{children:"Verified"}),t("dd",{children:t("time",{dateTime:e.verifiedAt,children:Ni(e.verifiedAt)})})]}),e.headSeq>0&&t("p",{class:"hint",children:["Keep the head's position and hash: a later chain whose entry ",e.headSeq," has another hash, or is gone, was rewritten or truncated. Verifications are reused for 10 seconds."]})]})]})}function Ni(n){return new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"medium"})}function cn(n){return n.map(String).join("\0")}function qi(n){const e=[],r=new Map,i=(a,o,s,d,h)=>{const u=e.length;if(Array.isArray(a)&&a.length>0)e.push(`${s}${d}[`),a.forEach((p,l)=>i(p,[...o,l],`${s}  `,"",l<a.length-1?",":"")),e.push(`${s}]${h}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const p=Object.entries(a);e.push(`${s}${d}{`),p.forEach(([l,c],f)=>i(c,[...o,l],`${s}  `,`${JSON.stringify(l)}: `,f<p.length-1?",":"")),e.push(`${s}}${h}`)}else e.push(`${s}${d}${JSON.stringify(a)}${h}`);r.set(cn(o),[u,e.length-1])};return i(n,[],"","",""),{lines:e,spans:r}}function Li(n,e){for(let r=e.length;r>=0;r--){const i=n.get(cn(e.slice(0,r)));if(i)return r===e.length?i:[i[0],i[0]]}}function Ui(n){const{lines:e,spans:r}=qi(n.value),i=new Map;for(const a of n.marks){const o=Li(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return t("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:t("ol",{children:e.map((a,o)=>{const s=i.get(o);return t("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[t("code",{children:a}),s&&s.length>0&&t("span",{class:"sr-only",children:[" problem: ",s.map(d=>d.label).join("; ")]})]},o)})})})}function ve(n){if(!n.trim())return{error:"Paste or upload an invoice first."};try{const e=JSON.parse(n);return!e||typeof e!="object"||Array.isArray(e)?{error:"The invoice must be a JSON object."}:{value:e}}catch(e){return{error:`Not valid JSON: ${e.message}`}}}function Oi(){const n=crypto.getRandomValues(new Uint8Array(16));return Array.from(n,e=>e.toString(16).padStart(2,"0")).join("")}function xt(n){const e=n.map(r=>typeof r=="number"?r:String(r));return e[0]==="input"&&e[1]==="payload"?e.slice(2):e}function Bi(){const{params:n}=ne(),e=n.projectId,r=on(e),[i,a]=g(""),[o,s]=g("B2B"),[d,h]=g(""),[u,p]=g(),[l,c]=g(),[f,y]=g(),[I,S]=g(),[k,b]=g(),[m,L]=g(""),[B,V]=g(),[Y,Q]=g(""),[R,T]=g(""),[U,mt]=g(),ln=je(Oi,[i,o,Y]);J(()=>()=>{k&&URL.revokeObjectURL(k)},[k]);const Ke=_=>{a(_);const{value:$}=ve(_);$&&(typeof $.issue_date=="string"&&T($.issue_date),typeof $.irn=="string"&&Q($.irn.split("-").slice(0,-2).join("-")||$.irn),typeof $.invoice_kind=="string"&&s($.invoice_kind.toUpperCase()))},ge=async(_,$)=>{L(_),V(void 0);try{await $()}catch(O){V(O)}finally{L("")}},un=()=>{const{value:_,error:$}=ve(i);p($),_&&ge("validate",async()=>{const O=await D(si,{projectId:e,input:{invoiceTypeCode:o,taxAuthorityCode:"NRS",payload:_,profile:d==="NRS"||d==="STRICT"?d:null}});c({value:_,report:O.validateInvoice,profile:O.project.validationProfile})})},pn=_=>{_.preventDefault(),ge("irn",async()=>{const $=await D(ci,{projectId:e,input:{invoiceReference:Y,invoiceTypeCode:o,taxAuthorityCode:"NRS",issueDate:R}});y($.generateIrn);const O=await D(di,{projectId:e,input:{irn:$.generateIrn.irn}});S(O.invoiceQrCode);const{value:oe}=ve(i);oe&&oe.irn!==$.generateIrn.irn&&a(JSON.stringify({...oe,irn:$.generateIrn.irn},null,2))})},hn=()=>{const{value:_,error:$}=ve(i);p($),_&&ge("render",async()=>{const O=await D(li,{projectId:e,input:{invoiceType:o,payload:_}});if(!O.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const oe=Uint8Array.from(atob(O.renderInvoice.pdfBase64),yn=>yn.charCodeAt(0));b(URL.createObjectURL(new Blob([oe],{type:"application/pdf"})))})},fn=()=>{ge("sample",async()=>{const $=(await D(ui,{projectId:e,invoiceType:o})).invoiceSample;p(void 0),c(void 0),y(void 0),S(void 0),mt(void 0),Ke(JSON.stringify($,null,2)),Q(`SAMPLE${Date.now().toString(36).toUpperCase()}`)})},mn=()=>{const{value:_,error:$}=ve(i);p($),_&&ge("submit",async()=>{const O={projectId:e,invoiceType:o,payload:_,invoiceReference:typeof _.irn=="string"?null:Y||null},oe=await On(pi,{input:O},ln);mt(oe.submitInvoice)})},gn=async _=>{const $=_.currentTarget.files?.[0];if($){if($.size>9e5){p("The file is larger than the 900 KB an invoice may be.");return}Ke(await $.text())}},Fe=l?[...l.report.errors,...l.report.warnings]:[],gt=ie(B);return t(M,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[t(me,{projectId:e,project:r}),t("div",{class:"workbench",children:[t("div",{class:"panel",children:[t("div",{class:"row",children:[t(ce,{label:"Invoice kind",name:"kind",value:o,onChange:_=>s(_.currentTarget.value),children:[t("option",{value:"B2B",children:"B2B"}),t("option",{value:"B2C",children:"B2C"}),t("option",{value:"B2G",children:"B2G"})]}),t("div",{class:"field field-button",children:t("button",{type:"button",class:"secondary",onClick:fn,disabled:!!m,"data-testid":"load-sample",children:m==="sample"?"Loading…":`Load a ${o} sample`})}),t(ce,{label:"Validation profile",name:"profile",value:d,onChange:_=>h(_.currentTarget.value),children:[t("option",{value:"",children:"The project's profile"}),t("option",{value:"NRS",children:"NRS: what NRS refuses is an error"}),t("option",{value:"STRICT",children:"Strict: consistency checks are errors too"})]}),t("div",{class:"field",children:[t("label",{for:"wb-file",children:"Upload a JSON file"}),t("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:gn})]})]}),t("div",{class:`field${u?" invalid":""}`,children:[t("label",{for:"wb-json",children:"Invoice JSON"}),t("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:i,"aria-invalid":u?"true":void 0,"aria-describedby":u?"wb-json-error":void 0,onInput:_=>Ke(_.currentTarget.value)}),u&&t("p",{class:"field-error",id:"wb-json-error",children:u})]}),t("div",{class:"buttons",children:[t("button",{type:"button",onClick:un,disabled:!!m,children:m==="validate"?"Validating…":"Validate"}),t("button",{type:"button",class:"secondary",onClick:hn,disabled:!!m,children:m==="render"?"Rendering…":"Preview PDF"}),t("button",{type:"button",class:"secondary",onClick:mn,disabled:!!m,"data-testid":"submit-invoice",children:m==="submit"?"Submitting…":"Submit to NRS"})]}),t("p",{class:"hint",children:["Submitting sends the invoice through the same checks and queue as ",t("code",{children:"POST /api/v2/invoices"})," (owners and admins); without an IRN in the JSON, one is generated from the invoice reference below."]}),U&&t(tt,{children:["Submitted:"," ",t("a",{href:`/projects/${e}/invoices/${U.id}`,"data-testid":"submitted-link",children:U.irn})," ","(",U.status.toLowerCase(),"). Follow it on its page."]}),t(re,{error:B,fields:["invoiceReference","issueDate"]})]}),l&&t("section",{class:"panel","aria-labelledby":"wb-result",children:[t("h2",{id:"wb-result",tabIndex:-1,ref:_=>_?.focus(),children:[l.report.valid?t(N,{tone:"ok",children:"valid"}):t(N,{tone:"bad",children:"invalid"})," ",l.report.errors.length," errors, ",l.report.warnings.length," warnings"]}),t("p",{class:"muted small",children:["Schema ",l.report.schemaVersion,", rules ",l.report.ruleset,d===""&&`, the project's profile (${l.profile.toLowerCase()})`]}),Fe.length>0&&t("ol",{class:"issues","data-testid":"issues",children:Fe.map((_,$)=>{const O=xt(_.loc);return t("li",{class:_.severity,children:[t(N,{tone:_.severity==="error"?"bad":"warn",children:_.severity})," ",t("code",{children:O.join(".")||"(invoice)"}),": ",_.message," ",t("span",{class:"muted small",children:_.rule})," ",t("a",{href:`#line-issue-${$}`,children:"show"})]},$)})}),t(Ui,{value:l.value,marks:Fe.map((_,$)=>({path:xt(_.loc),label:_.message,id:`issue-${$}`}))})]}),t("form",{class:"panel",onSubmit:pn,noValidate:!0,children:[t("h2",{children:"IRN and QR code"}),t("div",{class:"row",children:[t(A,{label:"Invoice reference",name:"invoiceReference",value:Y,onInput:_=>Q(_.currentTarget.value),error:gt.invoiceReference}),t(A,{label:"Issue date",name:"issueDate",type:"date",value:R,onInput:_=>T(_.currentTarget.value),error:gt.issueDate})]}),t("button",{type:"submit",disabled:!!m,children:m==="irn"?"Generating…":"Generate IRN and QR"}),f&&t(tt,{children:["IRN ",t("code",{"data-testid":"irn",children:f.irn})]}),I&&t("div",{class:"qr",children:[I.qrPngBase64&&t("img",{src:`data:image/png;base64,${I.qrPngBase64}`,alt:`QR code of ${I.irn}`,width:180,height:180}),t("p",{class:"small",children:["Encrypted payload (",I.encryption,", key ",I.keyFingerprint.slice(0,16),"…):"]}),t("code",{class:"wrap small",children:I.qrPayload})]})]}),k&&t("section",{class:"panel","aria-labelledby":"wb-pdf",children:[t("h2",{id:"wb-pdf",children:"PDF preview"}),t("iframe",{src:k,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf",onLoad:_=>{_.currentTarget.dataset.loaded="true"}},k),t("p",{children:t("a",{href:k,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function dn(n){return t(M,{title:n.error?"Something went wrong":"Page not found",children:[n.error?t(z,{error:n.error}):t("p",{children:"There is nothing at this address."}),t("p",{children:t("a",{href:"/",children:"Go to your projects"})})]})}const Ki=fe(()=>de(()=>import("./invoices-CPEjJVP_.js"),__vite__mapDeps([0,1])).then(n=>n.Invoices)),Fi=fe(()=>de(()=>import("./invoices-CPEjJVP_.js"),__vite__mapDeps([0,1])).then(n=>n.InvoiceDetail)),zi=fe(()=>de(()=>import("./webhooks-BdL7D8Iy.js"),__vite__mapDeps([2,1])).then(n=>n.Webhooks)),Wi=fe(()=>de(()=>import("./webhooks-BdL7D8Iy.js"),__vite__mapDeps([2,1])).then(n=>n.WebhookDeliveries)),Mi=fe(()=>de(()=>import("./faults-BnnHoN6V.js"),__vite__mapDeps([3,1])).then(n=>n.SandboxFaults)),Hi=fe(()=>de(()=>import("./inbox-DkmzjCsX.js"),__vite__mapDeps([4,1])).then(n=>n.Inbox)),Vi=["/login","/signup"];function Qi(){return t(De,{children:t(Gi,{})})}function Gi(){const n=Ln(ee),e=W();J(()=>{n.status==="unknown"&&Be()},[n.status]);const r=Vi.includes(e.path);return J(()=>{if(n.status==="signedOut"&&!r){const i=e.url!=="/"?`?next=${encodeURIComponent(e.url)}`:"";e.route(`/login${i}`,!0)}},[n.status,r,e.url]),n.status==="unknown"?t("main",{id:"main",class:"center",children:t(F,{label:"Signing you in…"})}):r||n.status!=="signedIn"?t("main",{id:"main",class:"center",children:t(Je,{children:[t(E,{path:"/login",component:yi}),t(E,{path:"/signup",component:vi}),t(E,{default:!0,component:()=>t(F,{})})]})}):t(Xi,{email:n.user?.email??"",children:t(Je,{children:[t(E,{path:"/",component:Ji}),t(E,{path:"/orgs",component:_i}),t(E,{path:"/orgs/:orgId/projects",component:Ii}),t(E,{path:"/orgs/:orgId/audit",component:Ti}),t(E,{path:"/projects/:projectId",component:bi}),t(E,{path:"/projects/:projectId/keys",component:ki}),t(E,{path:"/projects/:projectId/certification",component:Di}),t(E,{path:"/projects/:projectId/certification/:runId",component:Ri}),t(E,{path:"/projects/:projectId/usage",component:Pi}),t(E,{path:"/projects/:projectId/workbench",component:Bi}),t(E,{path:"/projects/:projectId/invoices",component:Ki}),t(E,{path:"/projects/:projectId/invoices/:invoiceId",component:Fi}),t(E,{path:"/projects/:projectId/webhooks",component:zi}),t(E,{path:"/projects/:projectId/webhooks/:endpointId",component:Wi}),t(E,{path:"/projects/:projectId/sandbox",component:Mi}),t(E,{path:"/projects/:projectId/inbox",component:Hi}),t(E,{default:!0,component:dn})]})})}function Ji(){const n=W(),e=H(()=>D(ft),[]);return J(()=>{const r=e.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!e.data)return;const i=localStorage.getItem(he),a=r.find(o=>o===i)??r[0];n.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[e.data]),e.error?t(dn,{error:e.error}):t(F,{})}async function Yi(n){Fn();try{await D(Wr)}catch{}try{await ht(Mr,{})}catch{}pt(),n("/login")}function Xi(n){const e=W();return t(q,{children:[t("a",{class:"skip",href:"#main",children:"Skip to content"}),t("header",{class:"top",children:[t("a",{class:"brand",href:"/",children:"einvoice"}),t("nav",{"aria-label":"Account",class:"account",children:[t("a",{href:"/orgs","aria-current":e.path==="/orgs"?"page":void 0,children:"Organizations"}),t("span",{class:"email",title:n.email,children:n.email}),t("button",{type:"button",class:"secondary",onClick:()=>{Yi(e.route)},children:"Log out"})]})]}),t("main",{id:"main",children:n.children})]})}kn(t(Qi,{}),document.getElementById("app"));export{x as A,N as B,nt as C,z as E,A as F,F as L,tt as N,me as P,q as S,re as a,ne as b,on as c,g as d,te as e,ie as f,le as g,J as h,M as i,H as j,ce as k,Tt as l,j as m,D as r,zn as s,t as u};
